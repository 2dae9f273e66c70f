# The push boot (sourced by boot-tests.sh): results pushed from the firmware
# to Debian's prometheus-pushgateway over a virtio-net NIC on QEMU's user
# network (restrict=on: the guest reaches only what a guestfwd gives it).
# tests/qemu/push_servers.py starts, on 127.0.0.1 on ports it chooses, the
# Pushgateway, a server answering 500 and one that never answers; each
# guestfwd opens one socat per guest connection to the port it wrote in the
# boot's folder. 10.0.2.100:9700 has no guestfwd: nothing listens there.
# 10.0.2.100:9443 is the Pushgateway behind TLS, with a certificate from a CA
# made for this boot, for that address only. OVMF's TLS configuration
# (fw_cfg etc/edk2/https/cacerts) puts that CA in the TlsCaCertificate
# variable; a Shell step deletes it before the step that must find none.
# OVMF's PXE boot options for the NIC are turned off (fw_cfg), and the NIC
# has no option ROM, so the firmware goes straight to the Shell.
push_fwd() { # GUEST_PORT NAME
	echo "guestfwd=tcp:10.0.2.100:$1-cmd:sh -c 'exec socat - TCP:127.0.0.1:\$(cat $WORK/push/$2.port)'"
}
push_api() { curl -sf "http://127.0.0.1:$(cat "$dir/pgw.port")/api/v1/metrics"; }
boot_begin push Skylake-Client \
	-netdev "user,id=n0,restrict=on,$(push_fwd 9091 pgw),$(push_fwd 9443 tls),$(push_fwd 9500 s500),$(push_fwd 9600 hang)" \
	-device virtio-net-pci,netdev=n0,romfile= -global ide-hd.bootindex=1 \
	-fw_cfg name=etc/edk2/https/cacerts,file="$WORK/push/cacerts.esl" \
	-fw_cfg name=opt/org.tianocore/IPv4PXESupport,string=n -fw_cfg name=opt/org.tianocore/IPv6PXESupport,string=n
boot_around 'python3 "$TOP/tests/qemu/push_servers.py" "$dir" & for i in $(seq 50); do [ -f "$dir/servers.pid" ] && break; sleep 0.2; done; [ -f "$dir/servers.pid" ]' \
	'[ ! -f "$dir/servers.pid" ] || kill "$(cat "$dir/servers.pid")" 2>/dev/null; wait'
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/tests/qemu/lab/pushlab.cfg"
boot_file "$TOP/tests/qemu/lab/pushlab500.cfg"
# The record a failed push's run stored, decoded from the boot's VARS image,
# says what the console said (its read line).
push_local() { # VAR STEP
	local read; read=$(step_output "$dir/serial.txt" "$2" | grep '^read ')
	[ -n "$read" ] && "$TOP/build/host/uncore_decode" --vars "$dir/vars.fd" "$1" | grep -Fx -- "$read"
}
# The step's output in a file, and the Pushgateway's groups checked against it.
push_same() { # STEP LABEL=VALUE...
	step_output "$dir/serial.txt" "$1" > "$dir/$1.out"
	python3 "$TOP/tests/qemu/push_check.py" "$dir/api.json" "$dir/$1.out" "${@:2}"
}
fail_line() { echo "^uncore: error: push to http://10\.0\.2\.100:$1/metrics/job/uncore failed: $2\$"; }
step load 'uncore-emu.efi --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500'
expect load rc zero
step push-bw 'uncore.efi bw -d 0.5 -o var:PushBw -o http://10.0.2.100:9091/metrics/job/uncore/run/bw'
expect push-bw rc zero
expect push-bw has '^uncore: results stored in EFI variable PushBw: '
expect push-bw has '^uncore: results pushed to http://10\.0\.2\.100:9091/metrics/job/uncore/run/bw: [0-9]+ bytes of OpenMetrics text \(HTTP 200\)$'
step push-tls 'uncore.efi bw -d 0.2 -o https://10.0.2.100:9443/metrics/job/uncore/run/tls'
expect push-tls rc zero
expect push-tls has '^uncore: results pushed to https://10\.0\.2\.100:9443/metrics/job/uncore/run/tls: [0-9]+ bytes of OpenMetrics text \(HTTP 200\)$'
step lab-push 'uncore.efi lab \pushlab.cfg'
expect lab-push rc nonzero
expect lab-push has '^UNCORE-LAB RESULT name=dram result=pass measurement=[0-9]+\.[0-9]{3} units=MB/s$'
expect lab-push has '^UNCORE-LAB RESULT name=dram_fail result=fail measurement=[0-9]+\.[0-9]{3} units=MB/s$'
expect lab-push lacks 'name=push '
expect lab-push has '^uncore: lab verdict pushed to http://10\.0\.2\.100:9091/metrics/job/uncorelab \(HTTP 200\)$'
expect lab-push has '^UNCORE-LAB END result=fail passed=1 failed=1$'
step lab-500 'uncore.efi lab \pushlab500.cfg'
expect lab-500 rc nonzero
expect lab-500 has '^UNCORE-LAB RESULT name=dram result=pass measurement=[0-9]+\.[0-9]{3} units=MB/s$'
expect lab-500 has '^uncore: error: push to http://10\.0\.2\.100:9500/metrics/job/uncorelab/case/[^ ]+ failed: HTTP error status 500 from the server$'
expect lab-500 has '^UNCORE-LAB RESULT name=push result=error$'
expect lab-500 has '^uncore: error: push to http://10\.0\.2\.100:9500/metrics/job/uncorelab failed: HTTP error status 500 from the server$'
expect lab-500 has '^UNCORE-LAB END result=fail passed=1 failed=2$'
step push-refused 'uncore.efi bw -d 0.2 -o var:PushRefused -o http://10.0.2.100:9700/metrics/job/uncore'
expect push-refused rc 0x18
expect push-refused has '^uncore: results stored in EFI variable PushRefused: '
expect push-refused has "$(fail_line 9700 'connection refused \(status 0x8000000000000069\)')"
step push-hang 'uncore.efi bw -d 0.2 -o var:PushHang -o http://10.0.2.100:9600/metrics/job/uncore'
expect push-hang rc 0x18
expect push-hang has '^uncore: results stored in EFI variable PushHang: '
expect push-hang has "$(fail_line 9600 'timeout: no answer within 5000 ms')"
step push-500 'uncore.efi bw -d 0.2 -o var:Push500 -o http://10.0.2.100:9500/metrics/job/uncore'
expect push-500 rc 0x18
expect push-500 has '^uncore: results stored in EFI variable Push500: '
expect push-500 has "$(fail_line 9500 'HTTP error status 500 from the server')"
# https with TLS in the firmware but no CA configured: refused before measuring.
step no-ca '!dmpstore -d TlsCaCertificate -guid fd2340d0-3dab-4349-a6c7-3b4f12b48eae'
expect no-ca rc zero
step push-https 'uncore.efi bw -d 0.2 -o var:PushTls -o https://10.0.2.100:9091/metrics/job/uncore'
expect push-https rc nonzero
expect push-https has "^uncore: error: cannot push to https://10\.0\.2\.100:9091/metrics/job/uncore: https needs a CA certificate: the firmware's TlsCaCertificate variable is not set$"
expect push-https lines 1
boot_check api 'push_api > "$dir/api.json"'
boot_check bw-pushed 'push_same push-bw job=uncore run=bw'
boot_check tls-pushed 'push_same push-tls job=uncore run=tls && grep -q "^session TLS" "$dir/tls.log"'
boot_check lab-pushed 'push_same lab-push job=uncorelab case=dram && python3 -c "import json,sys; g=[g for g in json.load(open(sys.argv[1]))[\"data\"] if g[\"labels\"]==dict(job=\"uncorelab\")]; v=[m[\"value\"] for m in g[0][\"uncore_lab_passed\"][\"metrics\"]]; sys.exit(v != [\"0\"] and \"uncore_lab_passed %s, want [0]\" % v)" "$dir/api.json"'
boot_check nothing-else 'python3 -c "import json,sys; l=sorted(str(sorted(g[\"labels\"].items())) for g in json.load(open(sys.argv[1]))[\"data\"]); print(*l, sep=\"\\n\"); sys.exit(len(l) != 5)" "$dir/api.json"'
boot_check local-500 'push_local Push500 push-500'
boot_check local-refused 'push_local PushRefused push-refused'
boot_check local-hang 'push_local PushHang push-hang'
boot_run
