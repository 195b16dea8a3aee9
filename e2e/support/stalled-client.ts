/**
 * A live room client that stops reading: a raw socket with a small receive buffer (set before it
 * connects, which Node cannot do, hence Python) that sends its GET and reads nothing until told to.
 * Told to, it reads what it can within a few seconds: how many bytes, and whether the server had
 * ended the stream (the end of the data, or a reset).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const SCRIPT = `
import socket, sys, time
host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect((host, port))
s.sendall(f"GET {path} HTTP/1.1\\r\\nHost: {host}\\r\\nAccept: text/event-stream\\r\\n\\r\\n".encode())
print("sent", flush=True)
sys.stdin.readline()
s.settimeout(5)
total, ended = 0, False
try:
    while True:
        chunk = s.recv(65536)
        if not chunk:
            ended = True
            break
        total += len(chunk)
except ConnectionResetError:
    ended = True
except socket.timeout:
    pass
print(f"{total} {'ended' if ended else 'open'}", flush=True)
`;

export async function stalledClient(url: string) {
  const target = new URL(url);
  const child = spawn('python3', ['-c', SCRIPT, target.hostname, target.port, target.pathname], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // Watched from the start: the script may have exited by the time its last line is seen.
  const exited = once(child, 'exit');
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (part: string) => (out += part));
  const line = async (n: number) => {
    while (out.split('\n').length <= n) await new Promise((r) => setTimeout(r, 20));
    return out.split('\n')[n - 1]!;
  };
  await line(1);
  return {
    /** Reads now: the bytes it got, and whether the server had ended the stream. */
    async readNow() {
      child.stdin.write('\n');
      const [bytes, state] = (await line(2)).split(' ');
      await exited;
      return { bytes: Number(bytes), ended: state === 'ended' };
    },
    stop: () => child.kill(),
  };
}
