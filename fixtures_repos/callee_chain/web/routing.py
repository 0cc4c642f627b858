from web.convertors import CONVERTOR_TYPES

ROUTES = {"home": "/", "item": "/items/{id}"}


def url_path_for(name: str, **params: object) -> str:
    path = ROUTES[name]
    for key, value in params.items():
        path = path.replace("{" + key + "}", CONVERTOR_TYPES["str"](value))
    return path
