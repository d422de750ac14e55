#!/usr/bin/env bash
# CI: Debian's nginx for tests/test_server_proxy.py (the test runs deploy/nginx.conf in front of a live
# server, unprivileged, from a folder of its own; it never uses the system's nginx service). Never fails
# the run: without nginx that test skips.
nginx_bin=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; })
if [ -n "$nginx_bin" ]; then
    echo "setup-nginx: nginx already installed ($("$nginx_bin" -v 2>&1))"
    exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-nginx: not root or no apt-get; the reverse-proxy test will be skipped (nginx missing)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# nginx-light would do too; plain nginx is what docs/operations.md tells operators to install. Its
# package starts the service where it can (not in a container without init); the test needs none.
if timeout 600 apt-get update -qq && timeout 600 apt-get install -y -qq --no-install-recommends nginx >/dev/null; then
    echo "setup-nginx: installed $(/usr/sbin/nginx -v 2>&1)"
else
    echo "setup-nginx: could not install nginx with apt-get; the reverse-proxy test will be skipped"
fi
exit 0
