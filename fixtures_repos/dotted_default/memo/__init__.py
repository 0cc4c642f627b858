from memo import keys


def cached(cache, key=keys.hashkey):
    def decorator(func):
        def wrapper(*args):
            k = key(*args)
            if k not in cache:
                cache[k] = func(*args)
            return cache[k]

        return wrapper

    return decorator
