from app.models.schemas.rwschema import RWSchema


class UserInLogin(RWSchema):
    email: str = ""
    password: str = ""


class UserInResponse(RWSchema):
    username: str = ""
    email: str = ""
