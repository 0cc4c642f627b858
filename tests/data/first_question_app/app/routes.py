"""The HTTP routes."""

from fastapi import APIRouter, Depends, FastAPI, HTTPException
from pypika import Query, Table
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import database, get_session
from app.models import Article, ArticleIn, User, UserIn, UserOut
from app.security import create_access_token, current_user_email, hash_password, verify_password

router = APIRouter()


@router.post("/users", response_model=UserOut)
def register(body: UserIn, session: Session = Depends(get_session)) -> User:
    user = User(email=body.email, hashed_password=hash_password(body.password))
    session.add(user)
    session.commit()
    return user


@router.post("/token")
def login(body: UserIn, session: Session = Depends(get_session)) -> dict:
    user = session.scalars(select(User).where(User.email == body.email)).first()
    if user is None or not verify_password(body.password, user.hashed_password):
        raise HTTPException(status_code=400, detail="bad credentials")
    return {"access_token": create_access_token(user.email), "token_type": "bearer"}


@router.post("/articles")
def create_article(body: ArticleIn, email: str = Depends(current_user_email), session: Session = Depends(get_session)) -> dict:
    author = session.scalars(select(User).where(User.email == email)).one()
    article = Article(title=body.title, slug=body.slug, author=author)
    session.add(article)
    session.commit()
    return {"slug": article.slug}


@router.get("/articles/count")
async def count_articles() -> int:
    articles = Table("articles")
    return int(await database.fetch_val(str(Query.from_(articles).select("count(*)"))))


def create_app() -> FastAPI:
    app = FastAPI(title="shop")
    app.include_router(router)
    return app
