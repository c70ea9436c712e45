#!/usr/bin/env bash
# Built-in demo resource provider: echo://<payload> prints <payload> ("%20" becomes a space).
#
#   echo.sh URI
#
# Exit status: 0 ok; 4 not an echo:// URI. Reachable through a registry entry whose
# provider is "echo" (register.json infers it from the scheme).
set -euo pipefail

uri="${1-}"
case "${uri}" in
echo://*) ;;
*)
	printf '%s\n' "echo provider requires an echo:// URI" >&2
	exit 4
	;;
esac
payload="${uri#echo://}"
printf '%s' "${payload//%20/ }"
