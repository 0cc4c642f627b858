from web.routing import url_path_for


def url_for(name: str, **params: object) -> str:
    return url_path_for(name, **params)


if __name__ == "__main__":
    print(url_for("item", id=3))
