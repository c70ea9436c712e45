#!/usr/bin/env bash
# shellcheck shell=bash
# Shared by the example's tools: a path inside sample/, from a relative name.

# sample_path NAME: prints sample/NAME as an absolute path; status 1 (nothing printed) when
# NAME is absolute or holds "..".
sample_path() {
	case "/${1-}/" in
	*/../* | //*) return 1 ;;
	esac
	printf '%s/sample/%s' "${MCPBASH_PROJECT_ROOT:?}" "${1-}"
}
