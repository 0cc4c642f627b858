from web.routing import router


@router.get("/user", name="users:get-current-user")
def retrieve_current_user() -> dict[str, str]:
    return {"username": "me"}
