from web.routing import router


def test_the_profile_page_path() -> None:
    assert router.url_path_for("users:get-current-user") == "/user"


def test_the_preferences_page_path() -> None:
    assert router.url_path_for("user-settings") == "/user/settings"
