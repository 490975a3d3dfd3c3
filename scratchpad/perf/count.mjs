import net from "node:net"
let calls = 0, bytes = 0
const orig = net.Socket.prototype.write
net.Socket.prototype.write = function (data, ...rest) { calls++; bytes += data.length; return orig.call(this, data, ...rest) }
process.on("exit", () => process.stderr.write(`socket writes: ${calls}, bytes ${bytes}\n`))
