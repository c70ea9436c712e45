import { mkdirSync, statSync, symlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { assetsParentDir, privateTempParent, userHome } from '../../../src/assets/data-dir.js';

t.test('XDG_DATA_HOME decides the data dir when absolute', async (t) => {
  t.equal(assetsParentDir({ XDG_DATA_HOME: '/srv/data', HOME: '/home/u' }, 'linux'), '/srv/data/mcp-bash');
});

t.test('a relative XDG_DATA_HOME is ignored, as the XDG spec requires', async (t) => {
  t.equal(assetsParentDir({ XDG_DATA_HOME: 'rel/data', HOME: '/home/u' }, 'linux'), '/home/u/.local/share/mcp-bash');
});

t.test('without XDG_DATA_HOME the default is ~/.local/share', async (t) => {
  t.equal(assetsParentDir({ HOME: '/home/u' }, 'darwin'), '/home/u/.local/share/mcp-bash');
  // Without HOME the user database decides (os.homedir() would read $HOME, which may be any
  // directory: a CI runner's, a container's, sudo -H's).
  t.equal(assetsParentDir({}, 'linux'), join(userInfo().homedir, '.local', 'share', 'mcp-bash'));
});

t.test('a relative HOME is ignored like a relative XDG_DATA_HOME: the user database decides', async (t) => {
  // os.homedir() returns $HOME as it is, which put the data dir inside the cwd.
  const saved = process.env.HOME;
  process.env.HOME = 'relhome';
  t.teardown(() => {
    process.env.HOME = saved;
  });
  const home = userInfo().homedir;
  t.equal(userHome({ HOME: 'relhome' }), home);
  t.equal(assetsParentDir({ HOME: 'relhome' }, 'linux'), join(home, '.local', 'share', 'mcp-bash'));
  t.equal(assetsParentDir({ HOME: 'relhome', XDG_DATA_HOME: '/srv/data' }, 'linux'), '/srv/data/mcp-bash');
});

t.test('Windows uses %LOCALAPPDATA%', async (t) => {
  t.equal(
    assetsParentDir({ LOCALAPPDATA: '/c/Users/u/AppData/Local', XDG_DATA_HOME: '/ignored' }, 'win32'),
    join('/c/Users/u/AppData/Local', 'mcp-bash'),
  );
  t.equal(assetsParentDir({ HOME: '/c/Users/u' }, 'win32'), join('/c/Users/u', 'AppData', 'Local', 'mcp-bash'));
});

t.test('the private temp fallback is a 0700 directory of our own', async (t) => {
  const tmp = t.testdir();
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  t.teardown(() => {
    process.env.TMPDIR = saved;
  });
  const dir = privateTempParent();
  t.equal(dir.startsWith(tmp), true);
  if (process.platform !== 'win32') t.equal(statSync(dir).mode & 0o777, 0o700);
  t.equal(privateTempParent(), dir, 'a second call reuses it');
});

t.test('the private temp fallback refuses a planted symlink', { skip: process.platform === 'win32' }, async (t) => {
  const tmp = t.testdir();
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  t.teardown(() => {
    process.env.TMPDIR = saved;
  });
  const elsewhere = join(tmp, 'attacker');
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(tmp, `mcp-bash-${process.getuid?.() ?? 'user'}`));
  t.throws(() => privateTempParent(), /symlink/);
});
