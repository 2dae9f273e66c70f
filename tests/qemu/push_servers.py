#!/usr/bin/env python3
"""The servers the push boot talks to, all on 127.0.0.1 on ports chosen here:
Debian's prometheus-pushgateway, a server that answers every request with
500, and one that accepts and never answers. Usage: push_servers.py DIR
writes DIR/pgw.port, DIR/s500.port, DIR/hang.port (and DIR/servers.pid),
then serves until DIR/stop appears, its parent process ends, or 900 s pass;
it stops the Pushgateway whatever ends it."""
import os, signal, socket, subprocess, sys, threading, time, urllib.request

d = sys.argv[1]
parent = os.getppid()


def listener():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    return s


def read_request(c):
    """The request's head and its body (Content-Length bytes)."""
    data = b""
    while b"\r\n\r\n" not in data:
        b = c.recv(65536)
        if not b:
            return data
        data += b
    head, _, body = data.partition(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    while len(body) < n:
        b = c.recv(65536)
        if not b:
            break
        body += b
    return data


def serve_500(s):
    while True:
        c, _ = s.accept()
        try:
            read_request(c)
            c.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
                      b"Content-Length: 6\r\nConnection: close\r\n\r\nbroken")
        finally:
            c.close()


held = []


def serve_hang(s):
    while True:
        c, _ = s.accept()
        held.append(c)  # read nothing, answer nothing, close nothing


s500, hang = listener(), listener()
probe = listener()
pgw_port = probe.getsockname()[1]
probe.close()
pgw = subprocess.Popen(["prometheus-pushgateway", "--web.listen-address=127.0.0.1:%d" % pgw_port,
                        "--persistence.file="],  # in memory only: nothing outside the boot
                       stdout=open(os.path.join(d, "pgw.log"), "w"), stderr=subprocess.STDOUT)


def stop(*_):
    pgw.terminate()
    try:
        pgw.wait(5)
    except subprocess.TimeoutExpired:
        pgw.kill()
    os._exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
for _ in range(100):
    try:
        urllib.request.urlopen("http://127.0.0.1:%d/-/ready" % pgw_port, timeout=1)
        break
    except OSError:
        if pgw.poll() is not None:
            break
        time.sleep(0.1)
else:
    stop()
if pgw.poll() is not None:
    print("push_servers: the Pushgateway did not start (see pgw.log)", file=sys.stderr)
    sys.exit(1)
threading.Thread(target=serve_500, args=(s500,), daemon=True).start()
threading.Thread(target=serve_hang, args=(hang,), daemon=True).start()
for name, port in (("pgw", pgw_port), ("s500", s500.getsockname()[1]), ("hang", hang.getsockname()[1])):
    with open(os.path.join(d, name + ".port"), "w") as f:
        f.write("%d\n" % port)
with open(os.path.join(d, "servers.pid"), "w") as f:
    f.write("%d\n" % os.getpid())
t0 = time.time()
while time.time() - t0 < 900 and not os.path.exists(os.path.join(d, "stop")):
    try:
        os.kill(parent, 0)
    except OSError:
        break
    time.sleep(0.2)
stop()
