// How release targets (release/node-binaries.json) are named in archives and by installers.

/** `linux`/`darwin`/`windows` and `x64`/`arm64` for a target such as `win-x64`. */
export function platformOf(target) {
  const [os, arch] = target.split('-');
  return { os: os === 'win' ? 'windows' : os, arch };
}

/** The top-level directory inside the archive: `mcp-bash-<version>-<os>-<arch>`. */
export function archiveRoot(version, target) {
  const { os, arch } = platformOf(target);
  return `mcp-bash-${version}-${os}-${arch}`;
}

/** `mcp-bash-<version>-<os>-<arch>.tar.gz`, or `.zip` for Windows. */
export function archiveName(version, target) {
  return `${archiveRoot(version, target)}${platformOf(target).os === 'windows' ? '.zip' : '.tar.gz'}`;
}

/** The executable's name inside the archive. */
export function binaryName(target) {
  return platformOf(target).os === 'windows' ? 'mcp-bash.exe' : 'mcp-bash';
}

/** The download directory of one release: `{version}` in `template` replaced. */
export function releaseBaseUrl(template, version) {
  return template.replaceAll('{version}', version).replace(/\/+$/, '');
}
