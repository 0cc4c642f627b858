from shelf import Crate, Jar, Session, create_engine, ok

with Crate([1, 2]) as crate:
    print(len(crate), crate[0], 1 in crate, ok(crate))
print(Jar(a=1).shake(), Session().expire_on_commit, create_engine("x", pool_size=2).pool_size)
