#!/usr/bin/env python3
"""The servers the push boot talks to, all on 127.0.0.1 on ports chosen here:
Debian's prometheus-pushgateway, the same behind TLS, a server that answers
every request with 500, and one that accepts and never answers. Usage:
push_servers.py DIR writes DIR/pgw.port, DIR/tls.port, DIR/s500.port,
DIR/hang.port (and DIR/servers.pid), then serves until DIR/stop appears, its
parent process ends, or 900 s pass; it stops the Pushgateway whatever ends it.
The TLS server's certificate (subjectAltName IP:10.0.2.100, the guest's name
for it) is signed by a CA made here with openssl for this boot only; the CA
is DIR/cacerts.esl as the firmware's TlsCaCertificate variable holds it: one
EFI_SIGNATURE_LIST of one EFI_CERT_X509_GUID entry (UEFI specification,
"Signature Database"). Each TLS session's version and cipher, or why its
handshake failed, goes to DIR/tls.log."""
import os, select, signal, socket, ssl, struct, subprocess, sys, threading, time, urllib.request, uuid

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


def make_certs():
    """A throwaway CA and the server's certificate signed by it, and the CA
    as an EFI signature list (EFI_CERT_X509_GUID a5c059a1-..., owner zero)."""
    def ssl_(*a):
        subprocess.run(("openssl",) + a, cwd=d, check=True, capture_output=True)
    ssl_("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
         "-subj", "/CN=uncore push test CA", "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    ssl_("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "tls.key", "-out", "tls.csr", "-subj", "/CN=10.0.2.100")
    with open(os.path.join(d, "tls.ext"), "w") as f:
        f.write("subjectAltName=IP:10.0.2.100\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
    ssl_("x509", "-req", "-in", "tls.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2",
         "-days", "2", "-extfile", "tls.ext", "-out", "tls.pem")
    ssl_("x509", "-in", "ca.pem", "-outform", "DER", "-out", "ca.der")
    der = open(os.path.join(d, "ca.der"), "rb").read()
    x509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072").bytes_le
    with open(os.path.join(d, "cacerts.esl"), "wb") as f:
        f.write(x509 + struct.pack("<III", 28 + 16 + len(der), 0, 16 + len(der)) + bytes(16) + der)


def relay(c, ctx, log):
    """One TLS session to the Pushgateway, bytes passed on both ways."""
    try:
        t = ctx.wrap_socket(c, server_side=True)
    except (OSError, ssl.SSLError) as e:
        log.write("handshake failed: %s\n" % e)
        c.close()
        return
    log.write("session %s %s\n" % (t.version(), t.cipher()[0]))
    u = socket.create_connection(("127.0.0.1", pgw_port))
    try:
        while True:
            r = [t] if t.pending() else select.select([t, u], [], [], 60)[0]
            if not r:
                break
            for s in r:
                b = s.recv(65536)
                if not b:
                    return
                (u if s is t else t).sendall(b)
    except OSError as e:
        log.write("session ended: %s\n" % e)
    finally:
        t.close()
        u.close()


def serve_tls(s):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(d, "tls.pem"), os.path.join(d, "tls.key"))
    # OpenSSL's list: with Python's own (ECDHE key exchange only) OVMF's TLS had no cipher in common
    ctx.set_ciphers("DEFAULT")
    log = open(os.path.join(d, "tls.log"), "w", buffering=1)
    while True:
        c, _ = s.accept()
        threading.Thread(target=relay, args=(c, ctx, log), daemon=True).start()


make_certs()
s500, hang, tls = listener(), listener(), listener()
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
threading.Thread(target=serve_tls, args=(tls,), daemon=True).start()
for name, port in (("pgw", pgw_port), ("tls", tls.getsockname()[1]), ("s500", s500.getsockname()[1]),
                   ("hang", hang.getsockname()[1])):
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
