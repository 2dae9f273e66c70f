#!/usr/bin/env python3
"""The live variables of an OVMF VARS image, for the boot tests' checks from
the host: one line each, NAME-GUID and its size; load options (Driver####,
Boot####) decoded as attributes, description, device path and optional data
(hex), and DriverOrder/BootOrder as their option numbers.

    efivars.py IMAGE [NAME...]      only the variables named (any GUID), others' data in hex

The layout (firmware volume, authenticated variable store, 60-byte variable
headers, State 0x3F live) is the one tools/varsrc.c reads; this reader is
separate so that the tests do not check the decoder with itself."""
import struct
import sys
import uuid

HD_FORMAT = {1: "MBR", 2: "GPT"}


def variables(img):
    if img[40:44] != b"_FVH":
        sys.exit("efivars.py: not an OVMF VARS image (no _FVH)")
    at = struct.unpack_from("<H", img, 48)[0]
    end = at + struct.unpack_from("<I", img, at + 16)[0]
    at += 28
    while at + 60 <= end and struct.unpack_from("<H", img, at)[0] == 0x55AA:
        state = img[at + 2]
        nsize, dsize = struct.unpack_from("<II", img, at + 36)
        guid = uuid.UUID(bytes_le=bytes(img[at + 44:at + 60]))
        name = img[at + 60:at + 60 + nsize].decode("utf-16-le").rstrip("\0")
        data = img[at + 60 + nsize:at + 60 + nsize + dsize]
        if state == 0x3F:
            yield name, guid, data
        at += (60 + nsize + dsize + 3) & ~3


def device_path(b):
    nodes = []
    while len(b) >= 4:
        t, s, n = b[0], b[1], struct.unpack_from("<H", b, 2)[0]
        if n < 4 or (t, s) == (0x7F, 0xFF):
            break
        body = b[4:n]
        if (t, s) == (4, 1):
            part, start, size = struct.unpack_from("<IQQ", body)
            fmt, sig = body[36], body[20:36]
            sig = str(uuid.UUID(bytes_le=bytes(sig))) if fmt == 2 else "0x%x" % struct.unpack_from("<I", sig)[0]
            nodes.append("HD(%d,%s,%s,0x%x,0x%x)" % (part, HD_FORMAT.get(fmt, fmt), sig, start, size))
        elif (t, s) == (4, 4):
            nodes.append("File(%s)" % body.decode("utf-16-le").rstrip("\0"))
        else:
            nodes.append("Path(%d,%d,%s)" % (t, s, body.hex()))
        b = b[n:]
    return "/".join(nodes)


def describe(name, data):
    if name in ("DriverOrder", "BootOrder"):
        return " ".join("%04X" % v for v in struct.unpack("<%dH" % (len(data) // 2), data))
    if name[:-4] in ("Driver", "Boot") and len(data) >= 6:
        attr, plen = struct.unpack_from("<IH", data)
        i = 6
        while data[i:i + 2] != b"\0\0":
            i += 2
        desc = data[6:i].decode("utf-16-le")
        path = data[i + 2:i + 2 + plen]
        rest = data[i + 2 + plen:]
        return "attr=0x%x desc=%s path=%s data=%s" % (attr, desc, device_path(path), rest.hex())
    return ""


def main():
    img = open(sys.argv[1], "rb").read()
    want = set(sys.argv[2:])
    for name, guid, data in variables(img):
        if want and name not in want:
            continue
        text = describe(name, data) or (data.hex() if want else "")
        print(("%s-%s %d %s" % (name, guid, len(data), text)).rstrip())


main()
