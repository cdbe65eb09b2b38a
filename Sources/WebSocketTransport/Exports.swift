// A message partly shared with others (`SplicedBytes`) is what `WebSocketServer.send`
// takes: its users see the type without importing its module.
@_exported import MessageBytes
