from pkg import Engine

engine = Engine()
print(engine.run(3))
label = "🙂🙂"; print(label, engine.run(4))
