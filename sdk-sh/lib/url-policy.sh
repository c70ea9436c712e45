#!/usr/bin/env bash
# shellcheck shell=bash
# The one outbound-URL policy (SSRF guard) shared by the https and git resource providers and,
# through the https provider, by the SDK's mcp_download_safe. Private: nothing here is API.
#
#   _mcp_url_vet URL ALLOW_LIST DENY_LIST ALLOW_ALL REQUIRE_ALLOWLIST
#
# URL must be https://. On success (status 0) it sets
#   _MCPBASH_URL_HOST   the host, lower-case, IPv6 without brackets
#   _MCPBASH_URL_PORT   the port (443 by default)
#   _MCPBASH_URL_TARGET the URL rebuilt from the vetted parts (https://host:port/path?query)
#   _MCPBASH_URL_ADDRS  the vetted addresses, comma-separated, IPv6 in brackets: pin them
#                       (curl --resolve host:port:ADDRS) so no second DNS answer is used.
# On refusal it sets _MCPBASH_URL_ERROR and returns 4 (invalid or blocked) or 5 (the name
# did not resolve). Rules: no userinfo, no odd characters, no percent-encoded or obfuscated
# IP literals (integer, hex, octal, short forms); the deny list always wins; an allow list
# (or ALLOW_ALL=true) is required when REQUIRE_ALLOWLIST=true; every address of the host
# must be public (loopback, private, link-local, CGNAT, benchmarking, documentation,
# multicast, reserved, unspecified, IPv6 ULA/link-local/site-local and the IPv4-embedding
# forms of any of those are refused). The check runs before any connection is made.
#
# Test-only escape hatch: MCPBASH_TEST_ONLY_LOOPBACK_TARGETS="host:port[,host:port...]"
# lets exactly those host:port pairs reach loopback addresses (127.0.0.0/8, ::1), nothing
# else. It exists for the test suite's local HTTPS server; never set it in production.

# _mcp_is_true VALUE: status 0 for the boolean words every setting takes as true (true, 1,
# yes, on; any case, around spaces: docs/ENV.md), 1 for anything else.
_mcp_is_true() {
	local _mcp_word=""
	_mcp_url_lower_to _mcp_word "${1-}"
	_mcp_word="${_mcp_word#"${_mcp_word%%[![:space:]]*}"}"
	_mcp_word="${_mcp_word%"${_mcp_word##*[![:space:]]}"}"
	case "${_mcp_word}" in
	true | 1 | yes | on) return 0 ;;
	*) return 1 ;;
	esac
}

# _mcp_url_lower_to VAR STRING: ASCII lower-casing.
_mcp_url_lower_to() {
	local _mcp_s="${2-}" _mcp_out="" _mcp_c=""
	while [ -n "${_mcp_s}" ]; do
		_mcp_c="${_mcp_s:0:1}"
		_mcp_s="${_mcp_s:1}"
		case "${_mcp_c}" in
		[A-Z])
			case "${_mcp_c}" in
			A) _mcp_c=a ;; B) _mcp_c=b ;; C) _mcp_c=c ;; D) _mcp_c=d ;; E) _mcp_c=e ;; F) _mcp_c=f ;;
			G) _mcp_c=g ;; H) _mcp_c=h ;; I) _mcp_c=i ;; J) _mcp_c=j ;; K) _mcp_c=k ;; L) _mcp_c=l ;;
			M) _mcp_c=m ;; N) _mcp_c=n ;; O) _mcp_c=o ;; P) _mcp_c=p ;; Q) _mcp_c=q ;; R) _mcp_c=r ;;
			S) _mcp_c=s ;; T) _mcp_c=t ;; U) _mcp_c=u ;; V) _mcp_c=v ;; W) _mcp_c=w ;; X) _mcp_c=x ;;
			Y) _mcp_c=y ;; Z) _mcp_c=z ;;
			esac
			;;
		esac
		_mcp_out="${_mcp_out}${_mcp_c}"
	done
	printf -v "${1}" '%s' "${_mcp_out}"
}

# _mcp_url_refuse STATUS MESSAGE: records why and returns STATUS.
_mcp_url_refuse() {
	_MCPBASH_URL_ERROR="${2-}"
	return "${1-4}"
}

# _mcp_url_parse URL: splits an https URL into host/port/target. Status 4 when malformed.
_mcp_url_parse() {
	local _mcp_url="${1-}" _mcp_rest="" _mcp_auth="" _mcp_path="" _mcp_host="" _mcp_port=""
	local _mcp_port_re='^[0-9]{1,5}$'
	case "${_mcp_url}" in
	[Hh][Tt][Tt][Pp][Ss]://*) ;;
	*) _mcp_url_refuse 4 "URL must use https://" || return ;;
	esac
	case "${_mcp_url}" in
	*[[:space:][:cntrl:]\\]*) _mcp_url_refuse 4 "URL contains whitespace, control characters or backslashes" || return ;;
	esac
	_mcp_rest="${_mcp_url#*://}"
	_mcp_auth="${_mcp_rest%%[/?#]*}"
	_mcp_path="${_mcp_rest:${#_mcp_auth}}"
	_mcp_path="${_mcp_path%%#*}"
	case "${_mcp_path}" in
	'') _mcp_path="/" ;;
	'?'*) _mcp_path="/${_mcp_path}" ;;
	esac
	case "${_mcp_auth}" in
	*@*) _mcp_url_refuse 4 "URL userinfo (user@host) is not allowed" || return ;;
	\[*\]) _mcp_host="${_mcp_auth}" ;;
	\[*\]:*)
		_mcp_host="${_mcp_auth%%\]*}]"
		_mcp_port="${_mcp_auth#*\]:}"
		;;
	\[*) _mcp_url_refuse 4 "malformed IPv6 host" || return ;;
	*:*)
		_mcp_host="${_mcp_auth%%:*}"
		_mcp_port="${_mcp_auth#*:}"
		;;
	*) _mcp_host="${_mcp_auth}" ;;
	esac
	if [ -n "${_mcp_port}" ]; then
		if ! [[ "${_mcp_port}" =~ ${_mcp_port_re} ]] || [ "$((10#${_mcp_port}))" -lt 1 ] || [ "$((10#${_mcp_port}))" -gt 65535 ]; then
			_mcp_url_refuse 4 "invalid port: ${_mcp_port}" || return
		fi
		_mcp_port="$((10#${_mcp_port}))"
	fi
	_mcp_url_lower_to _mcp_host "${_mcp_host}"
	case "${_mcp_host}" in
	\[*\]) _mcp_host="${_mcp_host#\[}" && _mcp_host="${_mcp_host%\]}" ;;
	esac
	[ -n "${_mcp_host}" ] || _mcp_url_refuse 4 "URL has no host" || return
	_MCPBASH_URL_HOST="${_mcp_host}"
	_MCPBASH_URL_PORT="${_mcp_port:-443}"
	case "${_mcp_host}" in
	*:*) _MCPBASH_URL_TARGET="https://[${_mcp_host}]:${_MCPBASH_URL_PORT}${_mcp_path}" ;;
	*) _MCPBASH_URL_TARGET="https://${_mcp_host}:${_MCPBASH_URL_PORT}${_mcp_path}" ;;
	esac
	return 0
}

# _mcp_url_host_kind_to VAR HOST: name | ipv4 | ipv6 | obfuscated | invalid.
_mcp_url_host_kind_to() {
	local _mcp_h="${2-}" _mcp_hk_kind="name" _mcp_last=""
	local _mcp_octet='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
	local _mcp_v4_re="^${_mcp_octet}(\\.${_mcp_octet}){3}\$"
	local _mcp_num_re='^(0x[0-9a-f]*|[0-9]+)$'
	case "${_mcp_h}" in
	*:*)
		case "${_mcp_h}" in
		*[!0-9a-f:.]*) _mcp_hk_kind=invalid ;;
		*) _mcp_hk_kind=ipv6 ;;
		esac
		;;
	*[!a-z0-9._-]* | .* | *. | *..*) _mcp_hk_kind=invalid ;;
	*)
		_mcp_last="${_mcp_h##*.}"
		if [[ "${_mcp_h}" =~ ${_mcp_v4_re} ]]; then
			_mcp_hk_kind=ipv4
		elif [[ "${_mcp_last}" =~ ${_mcp_num_re} ]]; then
			# A numeric last label makes URL parsers read the host as an IPv4 number.
			_mcp_hk_kind=obfuscated
		fi
		;;
	esac
	printf -v "${1}" '%s' "${_mcp_hk_kind}"
}

# _mcp_url_ipv4_blocked A.B.C.D: status 0 when the address is not public unicast.
_mcp_url_ipv4_blocked() {
	local _mcp_a="" _mcp_b="" _mcp_c="" _mcp_rest="${1-}"
	local _mcp_octet='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
	local _mcp_v4_re="^${_mcp_octet}(\\.${_mcp_octet}){3}\$"
	[[ "${_mcp_rest}" =~ ${_mcp_v4_re} ]] || return 0
	_mcp_a="${_mcp_rest%%.*}"
	_mcp_rest="${_mcp_rest#*.}"
	_mcp_b="${_mcp_rest%%.*}"
	_mcp_rest="${_mcp_rest#*.}"
	_mcp_c="${_mcp_rest%%.*}"
	_mcp_a=$((10#${_mcp_a})) _mcp_b=$((10#${_mcp_b})) _mcp_c=$((10#${_mcp_c}))
	case "${_mcp_a}" in
	0 | 10 | 127) return 0 ;;                                      # this network, private, loopback
	100) [ "${_mcp_b}" -ge 64 ] && [ "${_mcp_b}" -le 127 ] && return 0 ;; # CGNAT 100.64/10
	169) [ "${_mcp_b}" -eq 254 ] && return 0 ;;                     # link-local
	172) [ "${_mcp_b}" -ge 16 ] && [ "${_mcp_b}" -le 31 ] && return 0 ;;  # private
	192)
		[ "${_mcp_b}" -eq 168 ] && return 0                        # private
		[ "${_mcp_b}" -eq 0 ] && { [ "${_mcp_c}" -eq 0 ] || [ "${_mcp_c}" -eq 2 ]; } && return 0
		[ "${_mcp_b}" -eq 88 ] && [ "${_mcp_c}" -eq 99 ] && return 0 # 6to4 relay
		;;
	198)
		[ "${_mcp_b}" -eq 18 ] || [ "${_mcp_b}" -eq 19 ] && return 0   # benchmarking 198.18/15
		[ "${_mcp_b}" -eq 51 ] && [ "${_mcp_c}" -eq 100 ] && return 0 # documentation
		;;
	203) [ "${_mcp_b}" -eq 0 ] && [ "${_mcp_c}" -eq 113 ] && return 0 ;; # documentation
	esac
	[ "${_mcp_a}" -ge 224 ] && return 0 # multicast, reserved, broadcast
	return 1
}

# _mcp_url_ipv6_groups_append TEXT: appends the ":"-separated groups of TEXT to the
# caller's array _mcp_groups.
_mcp_url_ipv6_groups_append() {
	local _mcp_s="${1-}"
	[ -n "${_mcp_s}" ] || return 0
	while :; do
		_mcp_groups+=("${_mcp_s%%:*}")
		case "${_mcp_s}" in
		*:*) _mcp_s="${_mcp_s#*:}" ;;
		*) break ;;
		esac
	done
}

# _mcp_url_ipv6_expand_to VAR ADDRESS: sets VAR to the 32 hex digits of an IPv6 address
# (lower-case, no brackets). Status 1 when ADDRESS is not one.
_mcp_url_ipv6_expand_to() {
	local _mcp_a="${2-}" _mcp_head="" _mcp_tail="" _mcp_v4="" _mcp_out="" _mcp_g="" _mcp_n=0 _mcp_fill=0
	local _mcp_octet='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
	local _mcp_v4_re="^${_mcp_octet}(\\.${_mcp_octet}){3}\$"
	local -a _mcp_groups=()
	case "${_mcp_a}" in
	*[!0-9a-f:.]* | *:::* | *::*::* | '') return 1 ;;
	esac
	# An embedded dotted IPv4 tail becomes two hex groups.
	case "${_mcp_a##*:}" in
	*.*)
		_mcp_v4="${_mcp_a##*:}"
		[[ "${_mcp_v4}" =~ ${_mcp_v4_re} ]] || return 1
		local _mcp_o1="${_mcp_v4%%.*}" _mcp_r="${_mcp_v4#*.}"
		local _mcp_o2="${_mcp_r%%.*}"
		_mcp_r="${_mcp_r#*.}"
		local _mcp_o3="${_mcp_r%%.*}" _mcp_o4="${_mcp_r#*.}"
		printf -v _mcp_g '%x:%x' "$((_mcp_o1 * 256 + _mcp_o2))" "$((_mcp_o3 * 256 + _mcp_o4))"
		_mcp_a="${_mcp_a%:*}:${_mcp_g}"
		;;
	esac
	case "${_mcp_a}" in
	*::*)
		_mcp_head="${_mcp_a%%::*}"
		_mcp_tail="${_mcp_a#*::}"
		;;
	*) _mcp_head="${_mcp_a}" ;;
	esac
	_mcp_url_ipv6_groups_append "${_mcp_head}"
	_mcp_n="${#_mcp_groups[@]}"
	_mcp_url_ipv6_groups_append "${_mcp_tail}"
	case "${_mcp_a}" in
	*::*)
		_mcp_fill=$((8 - ${#_mcp_groups[@]}))
		[ "${_mcp_fill}" -ge 1 ] || return 1
		;;
	*) [ "${#_mcp_groups[@]}" -eq 8 ] || return 1 ;;
	esac
	local _mcp_i=0
	for _mcp_g in ${_mcp_groups[@]+"${_mcp_groups[@]}"}; do
		if [ "${_mcp_i}" -eq "${_mcp_n}" ] && [ "${_mcp_fill}" -gt 0 ]; then
			while [ "${_mcp_fill}" -gt 0 ]; do
				_mcp_out="${_mcp_out}0000"
				_mcp_fill=$((_mcp_fill - 1))
			done
		fi
		case "${_mcp_g}" in
		'' | ?????* | *[!0-9a-f]*) return 1 ;;
		esac
		_mcp_g="000${_mcp_g}"
		_mcp_out="${_mcp_out}${_mcp_g:$((${#_mcp_g} - 4))}"
		_mcp_i=$((_mcp_i + 1))
	done
	while [ "${_mcp_fill}" -gt 0 ]; do
		_mcp_out="${_mcp_out}0000"
		_mcp_fill=$((_mcp_fill - 1))
	done
	[ "${#_mcp_out}" -eq 32 ] || return 1
	printf -v "${1}" '%s' "${_mcp_out}"
}

# _mcp_url_hex_v4 HEX8: prints the dotted IPv4 address held in 8 hex digits.
_mcp_url_hex_v4() {
	local _mcp_h="${1-}"
	printf '%d.%d.%d.%d' "0x${_mcp_h:0:2}" "0x${_mcp_h:2:2}" "0x${_mcp_h:4:2}" "0x${_mcp_h:6:2}"
}

# _mcp_url_ipv6_blocked ADDRESS: status 0 unless ADDRESS is global unicast (2000::/3) outside
# the special ranges, or embeds a public IPv4 address (mapped, translated, compatible, NAT64,
# 6to4). Unparsable addresses are blocked.
_mcp_url_ipv6_blocked() {
	local _mcp_x=""
	_mcp_url_ipv6_expand_to _mcp_x "${1-}" || return 0
	case "${_mcp_x}" in
	00000000000000000000ffff????????) _mcp_url_ipv4_blocked "$(_mcp_url_hex_v4 "${_mcp_x:24:8}")" ;;       # ::ffff:a.b.c.d
	0000000000000000ffff0000????????) _mcp_url_ipv4_blocked "$(_mcp_url_hex_v4 "${_mcp_x:24:8}")" ;;       # ::ffff:0:a.b.c.d
	0000000000000000000000000000000? | 000000000000000000000000000000??) return 0 ;;                  # ::, ::1 and friends
	000000000000000000000000????????) _mcp_url_ipv4_blocked "$(_mcp_url_hex_v4 "${_mcp_x:24:8}")" ;;       # ::a.b.c.d (compatible)
	0064ff9b0000000000000000????????) _mcp_url_ipv4_blocked "$(_mcp_url_hex_v4 "${_mcp_x:24:8}")" ;;       # NAT64 64:ff9b::/96
	2002????????????????????????????) _mcp_url_ipv4_blocked "$(_mcp_url_hex_v4 "${_mcp_x:4:8}")" ;;        # 6to4
	20010db8* | 200100[01]* | 3fff0*) return 0 ;;                                                   # documentation, Teredo/IETF
	[23]*) return 1 ;;                                                                              # global unicast
	*) return 0 ;;                                                                                  # ULA, link/site-local, multicast, reserved
	esac
}

# _mcp_url_address_blocked ADDRESS: status 0 when ADDRESS (IPv4 or IPv6) must not be used.
_mcp_url_address_blocked() {
	case "${1-}" in
	*:*) _mcp_url_ipv6_blocked "${1}" ;;
	*) _mcp_url_ipv4_blocked "${1}" ;;
	esac
}

# _mcp_url_in_list ITEM LIST: status 0 when ITEM equals an entry of the comma/space LIST
# (case-insensitive; IPv6 entries may be bracketed).
_mcp_url_in_list() {
	local _mcp_item="${1-}" _mcp_list="" _mcp_entry=""
	_mcp_url_lower_to _mcp_list "${2-}"
	_mcp_list="${_mcp_list//,/ }"
	_mcp_list="${_mcp_list//$'\t'/ }"
	_mcp_list="${_mcp_list//$'\n'/ } "
	while [ -n "${_mcp_list}" ]; do
		_mcp_entry="${_mcp_list%% *}"
		_mcp_list="${_mcp_list#* }"
		_mcp_entry="${_mcp_entry#\[}"
		_mcp_entry="${_mcp_entry%\]}"
		if [ -n "${_mcp_entry}" ] && [ "${_mcp_entry}" = "${_mcp_item}" ]; then
			return 0
		fi
	done
	return 1
}

# _mcp_url_loopback ADDRESS: status 0 for 127.0.0.0/8 and ::1.
_mcp_url_loopback() {
	local _mcp_x=""
	case "${1-}" in
	127.*) return 0 ;;
	*:*)
		_mcp_url_ipv6_expand_to _mcp_x "${1}" || return 1
		[ "${_mcp_x}" = "00000000000000000000000000000001" ]
		;;
	*) return 1 ;;
	esac
}

# _mcp_url_resolve HOST: prints HOST's addresses, one per line, using getent, dig, host or
# nslookup (whichever exists first). Status 2 when none exists, 1 when nothing resolved.
_mcp_url_resolve() {
	local _mcp_host="${1-}" _mcp_out=""
	if command -v getent >/dev/null 2>&1; then
		_mcp_out="$(getent ahosts "${_mcp_host}" 2>/dev/null | awk '{ print $1 }')" || _mcp_out=""
	elif command -v dig >/dev/null 2>&1; then
		_mcp_out="$({ dig +short A "${_mcp_host}"; dig +short AAAA "${_mcp_host}"; } 2>/dev/null)" || _mcp_out=""
	elif command -v host >/dev/null 2>&1; then
		_mcp_out="$(host "${_mcp_host}" 2>/dev/null | awk '/has (IPv6 )?address/ { print $NF }')" || _mcp_out=""
	elif command -v nslookup >/dev/null 2>&1; then
		_mcp_out="$(nslookup "${_mcp_host}" 2>/dev/null | awk '/^Name:/ { seen = 1; next } seen && /^Address/ { print $NF }')" || _mcp_out=""
	else
		return 2
	fi
	# Keep only address-shaped lines (dig also prints CNAME targets), without duplicates.
	_mcp_out="$(printf '%s\n' "${_mcp_out}" | awk '/^[0-9a-fA-F:.]+$/ && /[.:]/ && !seen[$0]++')" || _mcp_out=""
	[ -n "${_mcp_out}" ] || return 1
	printf '%s\n' "${_mcp_out}"
}

# _mcp_url_test_override_allows HOST PORT ADDRESS: the test-only loopback hatch.
_mcp_url_test_override_allows() {
	[ -n "${MCPBASH_TEST_ONLY_LOOPBACK_TARGETS-}" ] || return 1
	_mcp_url_loopback "${3-}" || return 1
	case "${1-}" in
	*:*) _mcp_url_in_list "[${1}]:${2-}" "${MCPBASH_TEST_ONLY_LOOPBACK_TARGETS}" || _mcp_url_in_list "${1}:${2-}" "${MCPBASH_TEST_ONLY_LOOPBACK_TARGETS}" || return 1 ;;
	*) _mcp_url_in_list "${1}:${2-}" "${MCPBASH_TEST_ONLY_LOOPBACK_TARGETS}" || return 1 ;;
	esac
	printf 'mcp-bash: TEST-ONLY loopback override (MCPBASH_TEST_ONLY_LOOPBACK_TARGETS) allows %s:%s -> %s\n' "${1}" "${2}" "${3}" >&2
	return 0
}

# _mcp_url_vet URL ALLOW_LIST DENY_LIST ALLOW_ALL REQUIRE_ALLOWLIST: see the file header.
_mcp_url_vet() {
	local _mcp_allow="${2-}" _mcp_deny="${3-}" _mcp_allow_all="${4-false}" _mcp_require="${5-true}"
	local _mcp_kind="" _mcp_addrs="" _mcp_addr="" _mcp_pins="" _mcp_rc=0
	_MCPBASH_URL_ERROR="" _MCPBASH_URL_HOST="" _MCPBASH_URL_PORT="" _MCPBASH_URL_TARGET="" _MCPBASH_URL_ADDRS=""
	_mcp_url_parse "${1-}" || return 4
	_mcp_url_host_kind_to _mcp_kind "${_MCPBASH_URL_HOST}"
	case "${_mcp_kind}" in
	invalid) _mcp_url_refuse 4 "invalid host: ${_MCPBASH_URL_HOST}" || return ;;
	obfuscated) _mcp_url_refuse 4 "obfuscated IP address literal refused: ${_MCPBASH_URL_HOST}" || return ;;
	esac
	case "${_MCPBASH_URL_HOST}" in
	localhost | *.localhost | localhost.localdomain | ip6-localhost | ip6-loopback)
		_mcp_url_refuse 4 "host blocked: ${_MCPBASH_URL_HOST} is a loopback name" || return
		;;
	esac
	if _mcp_url_in_list "${_MCPBASH_URL_HOST}" "${_mcp_deny}"; then
		_mcp_url_refuse 4 "host blocked by deny list: ${_MCPBASH_URL_HOST}" || return
	fi
	if ! _mcp_is_true "${_mcp_allow_all}"; then
		if [ -n "${_mcp_allow}" ]; then
			_mcp_url_in_list "${_MCPBASH_URL_HOST}" "${_mcp_allow}" ||
				_mcp_url_refuse 4 "host not in allow list: ${_MCPBASH_URL_HOST}" || return
		elif [ "${_mcp_require}" = "true" ]; then
			_mcp_url_refuse 4 "no allow list: set an allow list (or allow-all) to permit ${_MCPBASH_URL_HOST}" || return
		fi
	fi
	if [ "${_mcp_kind}" = name ]; then
		_mcp_addrs="$(_mcp_url_resolve "${_MCPBASH_URL_HOST}")" || _mcp_rc=$?
		case "${_mcp_rc}" in
		0) ;;
		2) _mcp_url_refuse 4 "no DNS resolver (getent, dig, host or nslookup) to vet ${_MCPBASH_URL_HOST}" || return ;;
		*) _mcp_url_refuse 5 "could not resolve host: ${_MCPBASH_URL_HOST}" || return ;;
		esac
	else
		_mcp_addrs="${_MCPBASH_URL_HOST}"
	fi
	while IFS= read -r _mcp_addr; do
		[ -n "${_mcp_addr}" ] || continue
		_mcp_url_lower_to _mcp_addr "${_mcp_addr}"
		if _mcp_url_in_list "${_mcp_addr}" "${_mcp_deny}"; then
			_mcp_url_refuse 4 "address blocked by deny list: ${_MCPBASH_URL_HOST} -> ${_mcp_addr}" || return
		fi
		if _mcp_url_address_blocked "${_mcp_addr}" &&
			! _mcp_url_test_override_allows "${_MCPBASH_URL_HOST}" "${_MCPBASH_URL_PORT}" "${_mcp_addr}"; then
			if [ "${_mcp_kind}" = name ]; then
				_mcp_url_refuse 4 "host blocked: ${_MCPBASH_URL_HOST} resolves to a private or reserved address (${_mcp_addr})" || return
			fi
			_mcp_url_refuse 4 "host blocked: ${_mcp_addr} is a private or reserved address" || return
		fi
		case "${_mcp_addr}" in
		*:*) _mcp_pins="${_mcp_pins:+${_mcp_pins},}[${_mcp_addr}]" ;;
		*) _mcp_pins="${_mcp_pins:+${_mcp_pins},}${_mcp_addr}" ;;
		esac
	done <<EOF
${_mcp_addrs}
EOF
	[ -n "${_mcp_pins}" ] || _mcp_url_refuse 5 "could not resolve host: ${_MCPBASH_URL_HOST}" || return
	_MCPBASH_URL_ADDRS="${_mcp_pins}"
	return 0
}
