#!/usr/bin/env bash
# scripts/mail-test-servers.sh - install and start real mail servers on loopback for tests.
# (project copy of a measured recipe; `make test` runs `start`, sources $MAILSVC_DIR/env.sh, runs pytest, `stop`)
#
#   Dovecot (Debian package, run by hand, not by systemd/init):
#     IMAP        127.0.0.1:$IMAP_PORT        (plain, AUTH=PLAIN/LOGIN allowed)
#     IMAPS       127.0.0.1:$IMAPS_PORT       (self-signed cert: $MAILSVC_DIR/tls/cert.pem)
#     LMTP        127.0.0.1:$LMTP_PORT        (delivers into a user's INBOX)
#     Submission  127.0.0.1:$SUBMISSION_PORT  (STARTTLS, AUTH required; relays to the SMTP sink)
#     Submissions 127.0.0.1:$SUBMISSIONS_PORT (implicit TLS, AUTH required; relays to the SMTP sink)
#   aiosmtpd sink:
#     SMTP        127.0.0.1:$SMTP_PORT        (no auth; stores every message in
#                 $MAILSVC_DIR/sink/Maildir and re-delivers it via LMTP to
#                 recipients that are Dovecot users, so they can read it over IMAP)
#                 Each stored copy gets X-Sink-Mail-From, X-Sink-Rcpt-To and
#                 X-Sink-Peer (client ip:port, one per SMTP connection) headers.
#                 Failure injection: if $MAILSVC_DIR/sink.fail exists and holds
#                 "CODE [rcpt|data|mail]" (e.g. "451" or "550 data"), the sink
#                 answers CODE to that command (default rcpt). Remove the file to heal.
#
# Usage: mail-test-servers.sh [start|stop|status|restart-dovecot]   (default: start)
#        mail-test-servers.sh run CMD [ARG...]
# restart-dovecot = stop and start only Dovecot, same config, mail kept.
# start = stop anything this script started before, wipe mail, install what is
# missing, start both servers, wait until they answer, print the ports and
# write them to $MAILSVC_DIR/env.sh (source it, or read the KEY=VALUE lines).
# run = a set of servers of its own for one command (what `make test` and `make bench` use):
# without MAILSVC_DIR, a fresh directory made for this run (mktemp -d under /tmp) and removed
# after; start, the command with env.sh's variables, stop (also on Ctrl-C); exits with the
# command's status.  Two runs at once (two clones) never share a directory or a port.
#
# Ports: PORT_OFFSET=n (or IMAP_PORT=... each) gives fixed ports (10143+n, 10993+n, ...); without
# them, free loopback ports are chosen (probed by binding, outside the ephemeral range) while
# holding a lock that every start of this script takes, so two starts never pick the same.
# Must run as root (apt-get, useradd, Dovecot dropping to the vmail uid).
set -euo pipefail

OWN_DIR=0
if [ "${1:-}" = run ] && [ -z "${MAILSVC_DIR:-}" ]; then
  # every dir above it must be o+x (/tmp is): Dovecot's auth and vmail uids traverse it
  MAILSVC_DIR=$(mktemp -d /tmp/pbem-mailsvc.XXXXXX); OWN_DIR=1
fi
MAILSVC_DIR=${MAILSVC_DIR:-/tmp/pbem-mailsvc}  # every dir above it must be o+x: Dovecot's auth and vmail uids traverse it
AUTO_PORTS=1
if [ -n "${PORT_OFFSET:-}${IMAP_PORT:-}${IMAPS_PORT:-}${LMTP_PORT:-}${SUBMISSION_PORT:-}${SUBMISSIONS_PORT:-}${SMTP_PORT:-}" ]; then
  AUTO_PORTS=0
fi
PORT_OFFSET=${PORT_OFFSET:-0}  # fixed ports side by side: a different MAILSVC_DIR and PORT_OFFSET each
IMAP_PORT=${IMAP_PORT:-$((10143 + PORT_OFFSET))}
IMAPS_PORT=${IMAPS_PORT:-$((10993 + PORT_OFFSET))}
LMTP_PORT=${LMTP_PORT:-$((10024 + PORT_OFFSET))}
SUBMISSION_PORT=${SUBMISSION_PORT:-$((10587 + PORT_OFFSET))}
SUBMISSIONS_PORT=${SUBMISSIONS_PORT:-$((10465 + PORT_OFFSET))}
SMTP_PORT=${SMTP_PORT:-$((10025 + PORT_OFFSET))}
START_LOCK=${PBEM_MAILSVC_LOCK:-/tmp/pbem-mailsvc.lock}  # shared by every copy of this script on the machine
MAIL_DOMAIN=${MAIL_DOMAIN:-pbem.test}
MAIL_USERS=${MAIL_USERS:-"gm player1 player2 player3 player4 game $(printf 'p%02d ' $(seq 1 40))"}
MAIL_PASSWORD=${MAIL_PASSWORD:-secret}
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-}                  # a python that has aiosmtpd; default: the project's .venv, else a venv made here
AIOSMTPD_SPEC=${AIOSMTPD_SPEC:-aiosmtpd==1.4.6}
VMAIL_USER=${VMAIL_USER:-vmail}

log() { printf '[mailsvc] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

running() {  # PID still runs: a zombie has exited (here PID 1 may take seconds to reap what it inherited)
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

stop_pids() {  # TERM every pid named in the given pid files (ours only), wait for all to exit
  local f pid i pids=() kids=()
  for f in "$@"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f"); rm -f "$f"
    kill -0 "$pid" 2>/dev/null || continue
    grep -qaF -- "$MAILSVC_DIR" "/proc/$pid/cmdline" 2>/dev/null || continue  # pid reused by someone else
    # Dovecot's master leaves client-serving children (imap, log, stats) running when it
    # exits, keeping old IMAP sessions alive: note them to end them too
    kids+=($(ps -o pid= --ppid "$pid" 2>/dev/null || true))
    kill -TERM "$pid"; pids+=("$pid")
  done
  for pid in "${pids[@]}"; do  # dovecot's master takes about a second to exit (it sleeps one), the sink less
    for i in $(seq 1 300); do running "$pid" || break; sleep 0.05; done
    if running "$pid"; then log "pid $pid ignored TERM for 15s, killing"; kill -KILL "$pid"; fi
    log "stopped pid $pid"
  done
  for pid in "${kids[@]}"; do  # only our instance's processes (pids may have been reused)
    grep -qaF -- "dovecot-mailsvc-test/" "/proc/$pid/cmdline" 2>/dev/null && kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${kids[@]}"; do
    for i in $(seq 1 60); do running "$pid" || break; sleep 0.05; done
    if grep -qaF -- "dovecot-mailsvc-test/" "/proc/$pid/cmdline" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
}

do_stop() {
  stop_pids "$MAILSVC_DIR/sink.pid" "$MAILSVC_DIR/dovecot.pid"
}

install_packages() {
  local need=()
  for b in imap lmtp submission; do [ -x /usr/lib/dovecot/$b ] || need=(dovecot-imapd dovecot-lmtpd dovecot-submissiond); done
  command -v openssl >/dev/null || need+=(openssl)
  [ ${#need[@]} -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || die "need root to apt-get install ${need[*]}"
  # waits for another apt/dpkg and for another run installing the same; keeps init scripts from
  # starting a system-wide Dovecot on 143/993
  bash "$REPO_DIR/scripts/apt-install.sh" "${need[@]}" || die "installing ${need[*]} failed"
}

ensure_python() {
  if [ -n "$PYTHON" ] && "$PYTHON" -c 'import aiosmtpd' 2>/dev/null; then return 0; fi
  if "$REPO_DIR/.venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then PYTHON=$REPO_DIR/.venv/bin/python; return 0; fi
  PYTHON=$MAILSVC_DIR/venv/bin/python
  if ! "$PYTHON" -c 'import aiosmtpd' 2>/dev/null; then
    log "creating $MAILSVC_DIR/venv with $AIOSMTPD_SPEC"
    python3 -m venv "$MAILSVC_DIR/venv"
    "$MAILSVC_DIR/venv/bin/pip" install -q --disable-pip-version-check "$AIOSMTPD_SPEC" >"$MAILSVC_DIR/pip.log" 2>&1 \
      || { tail -20 "$MAILSVC_DIR/pip.log" >&2; die "pip install $AIOSMTPD_SPEC failed"; }
  fi
}

write_dovecot_conf() {  # dovecot 2.3 and 2.4 have incompatible config syntax
  local conf=$MAILSVC_DIR/dovecot.conf uid=$1 ver
  ver=$(dovecot --version | cut -d. -f1,2)
  case "$ver" in
  2.3) cat >"$conf" <<EOF
# Dovecot 2.3 (Debian 12): standalone instance for tests, loopback only
protocols = imap lmtp submission
listen = 127.0.0.1
base_dir = $MAILSVC_DIR/run
state_dir = $MAILSVC_DIR/state
instance_name = mailsvc-test
log_path = $MAILSVC_DIR/dovecot.log
first_valid_uid = $uid
hostname = localhost
# IDLE: a delivery is noticed by inotify at once; when inotify misses it (a loaded machine), recheck each second
mailbox_idle_check_interval = 1 secs

ssl = yes
ssl_cert = <$MAILSVC_DIR/tls/cert.pem
ssl_key = <$MAILSVC_DIR/tls/key.pem
ssl_dh = </usr/share/dovecot/dh.pem
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2 oauthbearer
auth_failure_delay = 0

passdb {
  driver = passwd-file
  mechanisms = plain login
  args = scheme=PLAIN username_format=%u $MAILSVC_DIR/users
}
# XOAUTH2 / OAUTHBEARER: HS256 tokens checked locally with the key in oauth2-keys/ (no token server)
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $MAILSVC_DIR/oauth2.conf.ext
}
userdb {
  driver = passwd-file
  args = username_format=%u $MAILSVC_DIR/users
}
mail_location = maildir:~/Maildir

service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
service submission-login {
  inet_listener submission {
    address = 127.0.0.1
    port = $SUBMISSION_PORT
  }
  inet_listener submissions {
    address = 127.0.0.1
    port = $SUBMISSIONS_PORT
    ssl = yes
  }
}
submission_relay_host = 127.0.0.1
submission_relay_port = $SMTP_PORT
submission_relay_trusted = yes
# Tests try wrong passwords on purpose; 2.3's auth penalty would then delay the
# next login from 127.0.0.1 by 2-15 s. Moving anvil's penalty socket away
# (base_dir/anvil-auth-penalty absent -> ENOENT) turns the penalty off.
service anvil {
  unix_listener anvil-auth-penalty {
    path = anvil-auth-penalty-disabled
  }
}
EOF
  ;;
  2.4) cat >"$conf" <<EOF
# Dovecot 2.4 (Debian 13): standalone instance for tests, loopback only
dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
protocols = imap lmtp submission
listen = 127.0.0.1
base_dir = $MAILSVC_DIR/run
state_dir = $MAILSVC_DIR/state
instance_name = mailsvc-test
log_path = $MAILSVC_DIR/dovecot.log
first_valid_uid = $uid
hostname = localhost
# IDLE: a delivery is noticed by inotify at once; when inotify misses it (a loaded machine), recheck each second
mailbox_idle_check_interval = 1s

ssl = yes
ssl_server_cert_file = $MAILSVC_DIR/tls/cert.pem
ssl_server_key_file = $MAILSVC_DIR/tls/key.pem
auth_allow_cleartext = yes
auth_mechanisms = plain login
auth_failure_delay = 0

passdb passwd-file {
  passwd_file_path = $MAILSVC_DIR/users
}
userdb passwd-file {
  passwd_file_path = $MAILSVC_DIR/users
}
mail_driver = maildir
mail_path = ~/Maildir

service imap-login {
  inet_listener imap {
    listen = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    listen = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    listen = 127.0.0.1
    port = $LMTP_PORT
  }
}
service submission-login {
  inet_listener submission {
    listen = 127.0.0.1
    port = $SUBMISSION_PORT
  }
  inet_listener submissions {
    listen = 127.0.0.1
    port = $SUBMISSIONS_PORT
    ssl = yes
  }
}
submission_relay_host = 127.0.0.1
submission_relay_port = $SMTP_PORT
submission_relay_trusted = yes
EOF
  ;;
  *) die "unsupported dovecot version $(dovecot --version)";;
  esac
  doveconf -n -c "$conf" >/dev/null 2>"$MAILSVC_DIR/doveconf.err" \
    || { cat "$MAILSVC_DIR/doveconf.err" >&2; die "dovecot rejected $conf"; }
}

write_sink() {
  cat >"$MAILSVC_DIR/smtp_sink.py" <<'EOF'
"""Loopback SMTP sink: store every message in a Maildir, re-deliver to Dovecot users via LMTP.
usage: smtp_sink.py HOST PORT MAILDIR [LMTP_HOST:LMTP_PORT]
Failure injection: a file sink.fail next to this script holding "CODE [mail|rcpt|data]"
makes the sink answer CODE to that command (default rcpt); re-read on every command."""
import asyncio, logging, mailbox, os, signal, smtplib, sys, threading
from aiosmtpd.controller import Controller

FAIL_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sink.fail')

def injected(command):
    try:
        with open(FAIL_FILE) as f:
            words = f.read().split()
    except OSError:
        return None
    if not words or not words[0].isdigit() or len(words[0]) != 3:
        return None
    if (words[1].lower() if len(words) > 1 else 'rcpt') != command:
        return None
    code = words[0]
    if code[0] == '4':
        return f'{code} 4.3.0 Temporary failure injected by sink.fail'
    return f'{code} 5.7.1 Permanent failure injected by sink.fail'

class SinkHandler:
    def __init__(self, maildir, lmtp):
        self.box, self.lmtp, self.count = mailbox.Maildir(maildir, create=True), lmtp, 0

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        fail = injected('mail')
        if fail:
            return fail
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return '250 OK'

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        fail = injected('rcpt')
        if fail:
            return fail
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return '250 OK'

    async def handle_DATA(self, server, session, envelope):
        fail = injected('data')
        if fail:
            return fail
        data = envelope.original_content or envelope.content
        peer = '%s:%s' % tuple(session.peer[:2]) if session.peer else '?'
        self.box.add(b'X-Sink-Mail-From: %s\r\nX-Sink-Rcpt-To: %s\r\nX-Sink-Peer: %s\r\n' % (
            envelope.mail_from.encode(), ', '.join(envelope.rcpt_tos).encode(), peer.encode()) + data)
        self.count += 1
        if self.lmtp:
            try:
                await asyncio.get_running_loop().run_in_executor(None, self.relay, envelope, data)
            except Exception as e:  # the SMTP client must not see LMTP trouble
                logging.warning('LMTP relay failed: %r', e)
        return '250 2.0.0 Message accepted for delivery'

    def relay(self, envelope, data):
        # one transaction per recipient: smtplib.LMTP reads a single reply after
        # DATA, while LMTP answers once per accepted recipient
        with smtplib.LMTP(*self.lmtp) as l:
            for rcpt in envelope.rcpt_tos:
                try:
                    l.sendmail(envelope.mail_from, [rcpt], data)
                except smtplib.SMTPRecipientsRefused:
                    pass  # not a Dovecot user: kept in the sink Maildir only

def main():
    host, port, maildir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lmtp = None
    if len(sys.argv) > 4:
        h, p = sys.argv[4].rsplit(':', 1)
        lmtp = (h, int(p))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    ctrl = Controller(SinkHandler(maildir, lmtp), hostname=host, port=port)
    ctrl.start()
    print(f'smtp sink on {host}:{port} -> {maildir}, lmtp={lmtp}', flush=True)
    while not stop.wait(0.5):
        pass
    ctrl.stop()
    print(f'smtp sink stopped after {ctrl.handler.count} messages', flush=True)

if __name__ == '__main__':
    main()
EOF
}

wait_ready() {  # banner check of every port, 30 s at most
  "$PYTHON" - "$@" <<'EOF'
import socket, ssl, sys, time
deadline = time.monotonic() + 30
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
for spec in sys.argv[1:]:
    port, expect, tls = spec.split(':')
    while True:
        try:
            with socket.create_connection(('127.0.0.1', int(port)), timeout=2) as s:
                if tls == 'tls':
                    s = ctx.wrap_socket(s)
                if s.recv(256).startswith(expect.encode()):
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            sys.exit(f'port {port} did not answer {expect!r} within 30s')
        time.sleep(0.05)
EOF
}

selfcheck() {  # USER PASSWORD: IMAP login + SELECT INBOX proves auth, uid switch and Maildir access
  "$PYTHON" - "$IMAP_PORT" "$1" "$2" <<'EOF'
import imaplib, sys
m = imaplib.IMAP4('127.0.0.1', int(sys.argv[1]), timeout=10)
try:
    m.login(sys.argv[2], sys.argv[3])
    typ, data = m.select('INBOX')
    if typ != 'OK':
        sys.exit(f'SELECT INBOX as {sys.argv[2]} failed: {data}')
    m.logout()
except imaplib.IMAP4.error as e:
    sys.exit(f'IMAP self-check as {sys.argv[2]} failed: {e}')
EOF
}

start_dovecot() {
  # foreground mode (-F) in the background; all fds redirected so a caller
  # reading our stdout through a pipe is not kept waiting by the servers
  # (8>&-: the servers must not inherit the start lock's descriptor, or they would hold the lock while they run)
  dovecot -F -c "$MAILSVC_DIR/dovecot.conf" </dev/null >>"$MAILSVC_DIR/dovecot.out" 2>&1 8>&- &
  echo $! >"$MAILSVC_DIR/dovecot.pid"
}

do_restart_dovecot() {  # same config and ports (from env.sh), mail kept
  [ -s "$MAILSVC_DIR/env.sh" ] && [ -s "$MAILSVC_DIR/dovecot.conf" ] || die "not started: run $0 start first"
  # shellcheck disable=SC1091
  . "$MAILSVC_DIR/env.sh"
  local t0=$SECONDS
  ensure_python
  stop_pids "$MAILSVC_DIR/dovecot.pid"
  rm -rf "$MAILSVC_DIR/run"; mkdir -p "$MAILSVC_DIR/run"
  start_dovecot
  if ! wait_ready "$MAIL_IMAP_PORT:* OK:plain" "$MAIL_IMAPS_PORT:* OK:tls" "$MAIL_LMTP_PORT:220:plain"; then
    tail -20 "$MAILSVC_DIR/dovecot.log" "$MAILSVC_DIR/dovecot.out" >&2 || true
    die "dovecot did not come back"
  fi
  log "dovecot restarted, pid $(cat "$MAILSVC_DIR/dovecot.pid"), in $((SECONDS - t0))s"
}

port_busy() { "$PYTHON" -c 'import socket,sys; s=socket.socket(); sys.exit(0 if s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0 else 1)' "$1"; }

free_ports() {  # six loopback ports nobody listens on, nor is bound to (below Linux's ephemeral range 32768+)
  "$PYTHON" - <<'EOF'
import random, socket
rng, ports = random.SystemRandom(), []
while len(ports) < 6:
    port = rng.randrange(20000, 32000)
    if port in ports:
        continue
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))  # fails if anything holds the port (without SO_REUSEADDR: TIME_WAIT too)
    except OSError:
        continue
    finally:
        s.close()
    ports.append(port)
print(*ports)
EOF
}

do_start() {
  [ "$(id -u)" = 0 ] || die "run as root"
  local t0=$SECONDS
  mkdir -p "$MAILSVC_DIR"
  do_stop
  install_packages
  ensure_python
  # from choosing the ports to the servers listening on them, no other start of this script runs
  exec 8>>"$START_LOCK"
  flock -w 300 8 || die "another mail-test-servers.sh start held $START_LOCK for 5 minutes"
  if [ "$AUTO_PORTS" = 1 ]; then
    local ports
    ports=$(free_ports) || die "could not find free loopback ports"
    read -r IMAP_PORT IMAPS_PORT LMTP_PORT SUBMISSION_PORT SUBMISSIONS_PORT SMTP_PORT <<<"$ports"
  fi
  for p in $IMAP_PORT $IMAPS_PORT $LMTP_PORT $SUBMISSION_PORT $SUBMISSIONS_PORT $SMTP_PORT; do
    port_busy "$p" && die "127.0.0.1:$p is already in use by another process (choose another PORT_OFFSET, or none: free ports are then found)"
  done
  getent passwd "$VMAIL_USER" >/dev/null ||
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$VMAIL_USER"
  local vu vg
  vu=$(id -u "$VMAIL_USER"); vg=$(id -g "$VMAIL_USER")

  rm -rf "$MAILSVC_DIR/mail" "$MAILSVC_DIR/sink" "$MAILSVC_DIR/run" "$MAILSVC_DIR/state" "$MAILSVC_DIR/sink.fail"
  mkdir -p "$MAILSVC_DIR/mail" "$MAILSVC_DIR/sink" "$MAILSVC_DIR/run" "$MAILSVC_DIR/state" "$MAILSVC_DIR/tls"
  chown "$vu:$vg" "$MAILSVC_DIR/mail"
  chmod 755 "$MAILSVC_DIR"
  if [ ! -s "$MAILSVC_DIR/tls/cert.pem" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=localhost \
      -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
      -keyout "$MAILSVC_DIR/tls/key.pem" -out "$MAILSVC_DIR/tls/cert.pem" 2>/dev/null
    chmod 600 "$MAILSVC_DIR/tls/key.pem"
  fi
  # passwd-file: user:{PLAIN}password:uid:gid::home::   (Dovecot re-reads it when it changes)
  : >"$MAILSVC_DIR/users"
  for u in $MAIL_USERS; do
    case "$u" in *@*) ;; *) u=$u@$MAIL_DOMAIN;; esac
    printf '%s:{PLAIN}%s:%s:%s::%s::\n' "$u" "$MAIL_PASSWORD" "$vu" "$vg" "$MAILSVC_DIR/mail/$u" >>"$MAILSVC_DIR/users"
  done
  # OAuth2 (2.3 config only): tokens are JWTs signed with this HS256 key; tests mint their own
  # (dict-fs drops the "shared/" of the lookup key /shared/<azp>/<alg>/<kid>)
  mkdir -p "$MAILSVC_DIR/oauth2-keys/default/HS256"
  [ -s "$MAILSVC_DIR/oauth2.key" ] || head -c 32 /dev/urandom | base64 >"$MAILSVC_DIR/oauth2.key"
  cp "$MAILSVC_DIR/oauth2.key" "$MAILSVC_DIR/oauth2-keys/default/HS256/default"
  cat >"$MAILSVC_DIR/oauth2.conf.ext" <<EOF
introspection_mode = local
local_validation_key_dict = fs:posix:prefix=$MAILSVC_DIR/oauth2-keys/
username_attribute = sub
EOF
  write_dovecot_conf "$vu"
  write_sink

  start_dovecot
  "$PYTHON" "$MAILSVC_DIR/smtp_sink.py" 127.0.0.1 "$SMTP_PORT" "$MAILSVC_DIR/sink/Maildir" \
    "127.0.0.1:$LMTP_PORT" </dev/null >>"$MAILSVC_DIR/sink.log" 2>&1 8>&- &
  echo $! >"$MAILSVC_DIR/sink.pid"
  if ! wait_ready "$IMAP_PORT:* OK:plain" "$IMAPS_PORT:* OK:tls" "$LMTP_PORT:220:plain" \
                  "$SUBMISSION_PORT:220:plain" "$SUBMISSIONS_PORT:220:tls" "$SMTP_PORT:220:plain"; then
    tail -20 "$MAILSVC_DIR/dovecot.log" "$MAILSVC_DIR/dovecot.out" "$MAILSVC_DIR/sink.log" >&2 || true
    do_stop; die "mail services did not come up"
  fi
  exec 8>&-  # the servers hold their ports now: the next start sees them taken
  if ! selfcheck "$(head -1 "$MAILSVC_DIR/users" | cut -d: -f1)" "$MAIL_PASSWORD"; then
    tail -5 "$MAILSVC_DIR/dovecot.log" >&2; do_stop; die "Dovecot answers but cannot open a mailbox"
  fi
  cat >"$MAILSVC_DIR/env.sh" <<EOF
export MAIL_HOST=127.0.0.1
export MAIL_IMAP_PORT=$IMAP_PORT
export MAIL_IMAPS_PORT=$IMAPS_PORT
export MAIL_IMAPS_CAFILE=$MAILSVC_DIR/tls/cert.pem
export MAIL_LMTP_PORT=$LMTP_PORT
export MAIL_SUBMISSION_PORT=$SUBMISSION_PORT
export MAIL_SUBMISSIONS_PORT=$SUBMISSIONS_PORT
export MAIL_SMTP_PORT=$SMTP_PORT
export MAIL_SINK_MAILDIR=$MAILSVC_DIR/sink/Maildir
export MAIL_USERS_FILE=$MAILSVC_DIR/users
export MAIL_DOMAIN=$MAIL_DOMAIN
export MAIL_PASSWORD=$MAIL_PASSWORD
export MAIL_VMAIL_UID=$vu
export MAIL_VMAIL_GID=$vg
export MAIL_DOVECOT_CONF=$MAILSVC_DIR/dovecot.conf
export MAILSVC_DIR=$MAILSVC_DIR
export MAIL_SINK_FAIL_FILE=$MAILSVC_DIR/sink.fail
export MAIL_OAUTH2_KEY_FILE=$MAILSVC_DIR/oauth2.key
export MAIL_TEST_SERVERS_SCRIPT=$REPO_DIR/scripts/mail-test-servers.sh
EOF
  log "dovecot $(dovecot --version) pid $(cat "$MAILSVC_DIR/dovecot.pid"), sink pid $(cat "$MAILSVC_DIR/sink.pid"); ready in $((SECONDS - t0))s"
  sed 's/^export //' "$MAILSVC_DIR/env.sh"
}

do_status() {
  local ok=0 f
  for f in dovecot sink; do
    if [ -s "$MAILSVC_DIR/$f.pid" ] && kill -0 "$(cat "$MAILSVC_DIR/$f.pid")" 2>/dev/null; then
      echo "$f: running (pid $(cat "$MAILSVC_DIR/$f.pid"))"
    else echo "$f: not running"; ok=1; fi
  done
  return $ok
}

finish_run() {  # (the traps of do_run) stop the servers; remove the directory made for this run
  do_stop 2>/dev/null || true
  if [ "$OWN_DIR" = 1 ]; then rm -rf "$MAILSVC_DIR"; fi
}

do_run() {  # CMD...: servers of their own for one command (see the usage at the top)
  [ $# -gt 0 ] || die "usage: $0 run CMD [ARG...]"
  local rc=0
  trap finish_run EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mkdir -p "$MAILSVC_DIR"
  # a process of its own: inside `if`/`||` bash ignores set -e in a function, not in another bash
  if ! MAILSVC_DIR=$MAILSVC_DIR bash "${BASH_SOURCE[0]}" start >"$MAILSVC_DIR/start.log" 2>&1; then
    cat "$MAILSVC_DIR/start.log" >&2; exit 1
  fi
  log "servers in $MAILSVC_DIR: $(grep -E '^export MAIL_(IMAP|SMTP)_PORT=' "$MAILSVC_DIR/env.sh" | sed 's/^export //' | tr '\n' ' ')"
  ( set -a; . "$MAILSVC_DIR/env.sh"; set +a; exec "$@" ) || rc=$?
  if ! do_status >/dev/null; then  # a server died under the command: say so, with its last words
    log "a server stopped during the run: $(do_status | tr '\n' ' ')"
    tail -n 15 "$MAILSVC_DIR/dovecot.log" "$MAILSVC_DIR/dovecot.out" "$MAILSVC_DIR/sink.log" >&2 2>/dev/null || true
  fi
  exit $rc
}

case "${1:-start}" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  restart-dovecot) do_restart_dovecot ;;
  run) shift; do_run "$@" ;;
  *) die "usage: $0 [start|stop|status|restart-dovecot] | run CMD [ARG...]" ;;
esac
