from app.models.schemas.rwschema import RWSchema


class ProfileInResponse(RWSchema):
    username: str = ""
    following: bool = False
