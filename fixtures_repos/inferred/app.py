from wire import Client, WebSocket
from wire.shapes import Square

client = Client()
print(client.fetch("/"))
print(WebSocket({"path": "/ws"}).url)
print(Square().area())
print(WebSocket.url.fget)
print(Square.area)
