/* One HTTP PUT through the firmware's network stack (UEFI specification,
 * "EFI HTTP Protocol" and "EFI IPv4 Configuration II Protocol"; gnu-efi
 * declares neither, so the parts used are declared here from the
 * specification). Every wait is bounded by a timer event of the firmware;
 * every child, event and header block it creates is given back on every
 * path. */
#include "http.h"

#include <efi.h>
#include <efilib.h>
#include <string.h>

#include "../drivers/base/fmt.h"
#include "native.h"
#include "vars.h"

#define ERR(...) fmt_snprintf(err, errsize, __VA_ARGS__)

static EFI_GUID http_sb_guid = { 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } };
static EFI_GUID http_guid = { 0x7a59b29b, 0x910b, 0x4171, { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } };
static EFI_GUID ip4cfg2_guid = { 0x5b446ed1, 0xe30b, 0x4faa, { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } };
static EFI_GUID tls_sb_guid = { 0x952cb795, 0xff36, 0x48cf, { 0xa2, 0x49, 0x4d, 0xf4, 0x86, 0xd6, 0xab, 0x8d } };
static EFI_GUID tls_ca_guid = { 0xfd2340d0, 0x3dab, 0x4349, { 0xa6, 0xc7, 0x3b, 0x4f, 0x12, 0xb4, 0x8e, 0xae } };

/* EFI_TCP4_PROTOCOL's connection errors, which the HTTP driver passes on. */
#define S_CONN_FIN EFIERR(104)
#define S_CONN_RESET EFIERR(105)
#define S_CONN_REFUSED EFIERR(106)
#define S_HTTP_ERROR EFIERR(35)

typedef struct SB {
	EFI_STATUS(EFIAPI *CreateChild)(struct SB *This, EFI_HANDLE *Child);
	EFI_STATUS(EFIAPI *DestroyChild)(struct SB *This, EFI_HANDLE Child);
} SB;

enum { IP4CFG2_INFO = 0, IP4CFG2_POLICY = 1 };
enum { POLICY_STATIC = 0, POLICY_DHCP = 1 };
typedef struct IP4CFG2 {
	EFI_STATUS(EFIAPI *SetData)(struct IP4CFG2 *This, UINT32 Type, UINTN Size, VOID *Data);
	EFI_STATUS(EFIAPI *GetData)(struct IP4CFG2 *This, UINT32 Type, UINTN *Size, VOID *Data);
} IP4CFG2;
typedef struct {
	CHAR16 Name[32];
	UINT8 IfType;
	UINT32 HwAddressSize;
	EFI_MAC_ADDRESS HwAddress;
	EFI_IPv4_ADDRESS StationAddress, SubnetMask;
	UINT32 RouteTableSize;
	VOID *RouteTable;
} IP4CFG2_INFO_DATA;

typedef struct {
	BOOLEAN UseDefaultAddress;
	EFI_IPv4_ADDRESS LocalAddress, LocalSubnet;
	UINT16 LocalPort;
} HTTP4_NODE;
typedef struct {
	UINT32 HttpVersion; /* 1: HTTP/1.1 */
	UINT32 TimeOutMillisec;
	BOOLEAN LocalAddressIsIPv6;
	HTTP4_NODE *IPv4Node;
} HTTP_CONFIG;
typedef struct {
	UINT32 Method; /* 6: PUT */
	CHAR16 *Url;
} HTTP_REQUEST;
typedef struct {
	CHAR8 *FieldName, *FieldValue;
} HTTP_HEADER;
typedef struct {
	VOID *Data; /* HTTP_REQUEST * or a UINT32 status code (the specification's enum) */
	UINTN HeaderCount;
	HTTP_HEADER *Headers;
	UINTN BodyLength;
	VOID *Body;
} HTTP_MESSAGE;
typedef struct {
	EFI_EVENT Event;
	EFI_STATUS Status;
	HTTP_MESSAGE *Message;
} HTTP_TOKEN;
typedef struct HTTP {
	EFI_STATUS(EFIAPI *GetModeData)(struct HTTP *This, HTTP_CONFIG *Data);
	EFI_STATUS(EFIAPI *Configure)(struct HTTP *This, HTTP_CONFIG *Data);
	EFI_STATUS(EFIAPI *Request)(struct HTTP *This, HTTP_TOKEN *Token);
	EFI_STATUS(EFIAPI *Cancel)(struct HTTP *This, HTTP_TOKEN *Token);
	EFI_STATUS(EFIAPI *Response)(struct HTTP *This, HTTP_TOKEN *Token);
	EFI_STATUS(EFIAPI *Poll)(struct HTTP *This);
} HTTP;

/* EFI_HTTP_STATUS_CODE, in the specification's order, as numbers. */
static const uint16_t http_codes[] = { 0,   100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303,
				       304, 305, 307, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410,
				       411, 412, 413, 414, 415, 416, 417, 500, 501, 502, 503, 504, 505, 308, 429 };

enum unc_status efi_http_ready(void *ctx, bool https, char *err, size_t errsize)
{
	UINTN n = 0, size = 0;
	EFI_HANDLE *h = NULL;

	(void)ctx;
	if (!https)
		return UNC_OK;
	if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &tls_sb_guid, NULL, &n, &h)) || !n)
		return ERR("https needs TLS in the firmware, and it has none (no TLS service binding)"), UNC_E_UNSUPPORTED;
	BS->FreePool(h);
	EFI_STATUS s = RT->GetVariable(L"TlsCaCertificate", &tls_ca_guid, NULL, &size, NULL);
	if (s != EFI_BUFFER_TOO_SMALL)
		return ERR("https needs a CA certificate: the firmware's TlsCaCertificate variable is not set"),
		       UNC_E_NOT_FOUND;
	return UNC_OK;
}

static VOID EFIAPI on_done(EFI_EVENT ev, VOID *ctx)
{
	(void)ev;
	*(volatile BOOLEAN *)ctx = TRUE;
}

/* A one-shot timer of ms milliseconds (NULL: none could be made). */
static EFI_EVENT deadline(unsigned ms)
{
	EFI_EVENT t = NULL;

	if (EFI_ERROR(BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &t)))
		return NULL;
	if (EFI_ERROR(BS->SetTimer(t, TimerRelative, (UINT64)ms * 10000))) {
		BS->CloseEvent(t);
		return NULL;
	}
	return t;
}

static bool expired(EFI_EVENT t)
{
	return !t || BS->CheckEvent(t) == EFI_SUCCESS;
}

/* The NIC's IPv4 address, 0 when it has none. */
static UINT32 address(IP4CFG2 *cfg)
{
	UINT8 buf[512];
	UINTN size = sizeof(buf);
	UINT32 a = 0;

	if (!EFI_ERROR(cfg->GetData(cfg, IP4CFG2_INFO, &size, buf)))
		memcpy(&a, &((IP4CFG2_INFO_DATA *)buf)->StationAddress, 4);
	return a;
}

/* 10 ms with the processor idle (efi_idle: WaitForEvent halts it between
 * the firmware's timer interrupts, which drive the network stack), or of
 * Stall (a busy wait) where it cannot idle. */
static void idle(void)
{
	if (!efi_idle(10000, false))
		BS->Stall(10000);
}

/* Polls the child until *done, or the deadline: false on the deadline. */
static bool wait_done(HTTP *http, volatile BOOLEAN *done, EFI_EVENT t)
{
	while (!*done) {
		if (expired(t))
			return false;
		http->Poll(http);
		if (!*done)
			idle();
	}
	return true;
}

static const char *cause(EFI_STATUS s)
{
	switch (s) {
	case S_CONN_REFUSED: return "connection refused";
	case S_CONN_RESET: return "connection reset by the server";
	case S_CONN_FIN: return "the server closed the connection without an answer";
	case EFI_TIMEOUT: return "timeout";
	case EFI_NO_MAPPING: return "the NIC has no IPv4 address";
	/* edk2's HTTP driver: the TLS session did not reach data transfer */
	case EFI_ABORTED: return "TLS handshake failed (certificate not from a configured CA or not for this host, or no common cipher)";
	case EFI_NOT_FOUND: return "no route to the server";
	default: return "network error";
	}
}

/* The request on a configured child: *code the answer's status. */
static enum unc_status exchange(HTTP *http, const char *url, const char *ctype, const void *body, size_t len,
				unsigned timeout_ms, unsigned *code, char *err, size_t errsize)
{
	CHAR16 wurl[300];
	char host[256], clen[24];
	size_t i = 0, u = 0;
	const char *h = strchr(url, ':') + 3; /* checked: SCHEME:// */
	volatile BOOLEAN sent = FALSE, got = FALSE;
	HTTP_REQUEST req = { 6, wurl };
	HTTP_HEADER hdr[3] = { { (CHAR8 *)"Host", (CHAR8 *)host }, { (CHAR8 *)"Content-Type", (CHAR8 *)ctype },
			       { (CHAR8 *)"Content-Length", (CHAR8 *)clen } };
	HTTP_MESSAGE msg = { &req, 3, hdr, len, (VOID *)body };
	UINT32 status = 0;
	HTTP_MESSAGE rmsg = { &status, 0, NULL, 0, NULL };
	HTTP_TOKEN tx = { NULL, EFI_SUCCESS, &msg }, rx = { NULL, EFI_SUCCESS, &rmsg };
	EFI_EVENT t = NULL;
	enum unc_status st = UNC_E_DEVICE;
	EFI_STATUS s;

	for (; url[u] && u + 1 < sizeof(wurl) / sizeof(wurl[0]); u++)
		wurl[u] = (CHAR16)(unsigned char)url[u];
	wurl[u] = 0;
	for (; h[i] && h[i] != '/' && i + 1 < sizeof(host); i++)
		host[i] = h[i];
	host[i] = 0;
	fmt_snprintf(clen, sizeof(clen), "%zu", len);
	if (EFI_ERROR(BS->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, on_done, (VOID *)&sent, &tx.Event)) ||
	    EFI_ERROR(BS->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, on_done, (VOID *)&got, &rx.Event)) ||
	    !(t = deadline(timeout_ms))) {
		ERR("no firmware event for the request");
		goto out;
	}
	if (EFI_ERROR((s = http->Request(http, &tx)))) {
		ERR("%s (status 0x%lx)", s == S_CONN_RESET ? "connection refused" : cause(s), (unsigned long)s);
		goto out;
	}
	if (!wait_done(http, &sent, t)) {
		http->Cancel(http, &tx);
		ERR("timeout: the request was not sent within %u ms", timeout_ms);
		goto out;
	}
	if (EFI_ERROR(tx.Status)) {
		ERR("%s (status 0x%lx)", cause(tx.Status), (unsigned long)tx.Status);
		goto out;
	}
	if (EFI_ERROR((s = http->Response(http, &rx)))) {
		if (s == EFI_TIMEOUT)
			ERR("timeout: no answer within %u ms", timeout_ms);
		else
			ERR("%s (status 0x%lx)", cause(s), (unsigned long)s);
		goto out;
	}
	if (!wait_done(http, &got, t)) {
		http->Cancel(http, &rx);
		ERR("timeout: no answer within %u ms", timeout_ms);
		goto out;
	}
	*code = status < sizeof(http_codes) / sizeof(http_codes[0]) ? http_codes[status] : 0;
	if (EFI_ERROR(rx.Status) && rx.Status != S_HTTP_ERROR) {
		ERR("%s (status 0x%lx)", cause(rx.Status), (unsigned long)rx.Status);
		goto out;
	}
	if (*code < 200 || *code > 299) {
		ERR("HTTP error status %u from the server", *code);
		goto out;
	}
	st = UNC_OK;
out:
	if (rmsg.Headers) {
		for (UINTN k = 0; k < rmsg.HeaderCount; k++) {
			if (rmsg.Headers[k].FieldName)
				BS->FreePool(rmsg.Headers[k].FieldName);
			if (rmsg.Headers[k].FieldValue)
				BS->FreePool(rmsg.Headers[k].FieldValue);
		}
		BS->FreePool(rmsg.Headers);
	}
	if (t)
		BS->CloseEvent(t);
	if (tx.Event)
		BS->CloseEvent(tx.Event);
	if (rx.Event)
		BS->CloseEvent(rx.Event);
	return st;
}

enum unc_status efi_http_put(void *ctx, const char *url, const char *ctype, const void *body, size_t len,
			     unsigned dhcp_ms, unsigned timeout_ms, unsigned *ret_code, char *err, size_t errsize)
{
	EFI_HANDLE *hs = NULL, nic, child = NULL;
	UINTN n = 0;
	SB *sb = NULL;
	IP4CFG2 *cfg = NULL;
	HTTP *http = NULL;
	UINT32 policy = POLICY_DHCP, dhcp = POLICY_DHCP;
	UINTN psize = sizeof(policy);
	bool changed = false;
	enum unc_status st = UNC_E_DEVICE;

	(void)ctx;
	*ret_code = 0;
	if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &http_sb_guid, NULL, &n, &hs)) || !n) {
		/* A firmware that boots fast connects only the boot devices: its
		 * NIC gets its drivers here, as the Shell's `connect -r` would. */
		if (!EFI_ERROR(BS->LocateHandleBuffer(AllHandles, NULL, NULL, &n, &hs))) {
			for (UINTN i = 0; i < n; i++)
				BS->ConnectController(hs[i], NULL, NULL, TRUE);
			BS->FreePool(hs);
		}
		hs = NULL, n = 0;
		if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &http_sb_guid, NULL, &n, &hs)) || !n)
			return ERR("no NIC: the firmware has no HTTP service binding"), UNC_E_NOT_FOUND;
	}
	nic = hs[0];
	BS->FreePool(hs);
	if (EFI_ERROR(BS->HandleProtocol(nic, &http_sb_guid, (VOID **)&sb)))
		return ERR("no NIC: its HTTP service binding went away"), UNC_E_NOT_FOUND;
	/* No address: DHCP (the firmware's default policy, started on demand);
	 * a static policy without an address is switched to DHCP for the push
	 * and put back after it. */
	if (!EFI_ERROR(BS->HandleProtocol(nic, &ip4cfg2_guid, (VOID **)&cfg)) && !address(cfg)) {
		/* only a policy it could read is changed, so that it can be put back */
		if (!EFI_ERROR(cfg->GetData(cfg, IP4CFG2_POLICY, &psize, &policy))) {
			changed = policy != POLICY_DHCP;
			cfg->SetData(cfg, IP4CFG2_POLICY, sizeof(dhcp), &dhcp);
		}
		/* a DHCP exchange takes seconds: idle, not spinning, meanwhile */
		EFI_EVENT t = deadline(dhcp_ms);
		while (!address(cfg) && !expired(t))
			idle();
		if (t)
			BS->CloseEvent(t);
		if (!address(cfg)) {
			st = UNC_E_NOT_FOUND, ERR("no DHCP answer within %u s (the NIC has no IPv4 address)", dhcp_ms / 1000);
			goto out;
		}
	}
	if (EFI_ERROR(sb->CreateChild(sb, &child)) ||
	    EFI_ERROR(BS->HandleProtocol(child, &http_guid, (VOID **)&http))) {
		ERR("the NIC's HTTP service made no HTTP instance");
		goto out;
	}
	HTTP4_NODE node = { TRUE, { { 0 } }, { { 0 } }, 0 };
	HTTP_CONFIG hc = { 1, timeout_ms, FALSE, &node };
	EFI_STATUS s = http->Configure(http, &hc);
	if (EFI_ERROR(s)) {
		ERR("%s (configuring HTTP: status 0x%lx)", cause(s), (unsigned long)s);
		goto out;
	}
	st = exchange(http, url, ctype, body, len, timeout_ms, ret_code, err, errsize);
	http->Configure(http, NULL);
out:
	if (child)
		sb->DestroyChild(sb, child);
	if (changed)
		cfg->SetData(cfg, IP4CFG2_POLICY, sizeof(policy), &policy);
	return st;
}
