from app.models.schemas.rwschema import RWSchema


class ArticleInCreate(RWSchema):
    title: str = ""
    body: str = ""


class ArticleInResponse(RWSchema):
    slug: str = ""
    title: str = ""


class ListOfArticlesInResponse(RWSchema):
    articles: list[ArticleInResponse] = []
    count: int = 0
