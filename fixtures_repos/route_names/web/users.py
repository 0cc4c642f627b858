from web.routing import router


@router.get("/user", name="users:get-current-user")
def retrieve_current_user() -> dict[str, str]:
    return {"username": "me"}


@router.get("/user/settings", name="user-settings")
def edit_user_settings() -> dict[str, str]:
    return {"theme": "light"}
