#!/usr/bin/env bash
# Adds a contact. Without name and email it returns a prompt for them; a client with MCP Apps
# shows the form of ui/ui.meta.json, whose Submit calls this tool again with the values.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

name="$(mcp_args_get '.name // ""')"
email="$(mcp_args_get '.email // ""')"
team="$(mcp_args_get '.team // "platform"')"

if [ -z "${name}" ] || [ -z "${email}" ]; then
	if mcp_client_supports_ui; then
		mcp_result_with_ui "" "The form to add a contact is open." '{"values":{"team":"platform"}}'
	else
		mcp_error "invalid_argument" "name and email are required" --hint 'Call example-add-contact {"name":"...","email":"..."}'
	fi
	exit 0
fi
case "${name}${email}" in
*$'\t'* | *$'\n'*)
	mcp_error "invalid_argument" "name and email must be one line without tabs"
	exit 0
	;;
esac
case "${email}" in
?*@?*) ;;
*)
	mcp_error "invalid_argument" "\"${email}\" is not an email address"
	exit 0
	;;
esac

printf '%s\t%s\t%s\n' "${name}" "${email}" "${team}" >>"${MCPBASH_PROJECT_ROOT:?}/data/contacts.tsv"
mcp_log_info "example-add-contact" "added ${email}"
mcp_result_with_ui "" "$(printf 'Added %s <%s> to %s.' "${name}" "${email}" "${team}")" \
	"$(mcp_json_obj name "${name}" email "${email}" team "${team}")"
