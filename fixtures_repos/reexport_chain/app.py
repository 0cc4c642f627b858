"""Example application using the shop package."""

from shop import Cart, checkout


def main():
    cart = Cart()
    cart.add("apple", qty=3)
    order_id = checkout(cart)
    print(order_id)


if __name__ == "__main__":
    main()
