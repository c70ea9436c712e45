import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { editTarget, isPathWithin } from '../../../src/fs/contained-path.js';
import { isSystemError, systemErrorCause, systemErrorLine } from '../../../src/fs/system-errors.js';

const thrown = (work: () => void): unknown => {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
};

t.test('system errors read as one line: what, where, why', async (t) => {
  const dir = t.testdir({ file: '' });
  const notDir = thrown(() => mkdirSync(join(dir, 'file', 'sub')));
  t.ok(isSystemError(notDir));
  t.equal(systemErrorLine(notDir as never), `cannot mkdir ${join(dir, 'file', 'sub')}: not a directory (ENOTDIR)`);
  const rename = thrown(() => renameSync(join(dir, 'missing'), join(dir, 'other')));
  t.equal(systemErrorCause(rename as never), 'no such file or directory (ENOENT)');
  const write = Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG', syscall: 'write' });
  t.equal(systemErrorLine(write), 'cannot write: file too large (EFBIG)');
  t.notOk(isSystemError(new TypeError('bug')));
  t.notOk(isSystemError(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' })), 'Node API errors are bugs');
});

t.test('edits go to regular files, through links only to files inside the root', async (t) => {
  const root = t.testdir({ project: { 'real.txt': 'x', sub: {} }, 'outside.txt': 'y' });
  const project = join(root, 'project');
  writeFileSync(join(project, 'plain'), '');
  const { symlinkSync } = await import('node:fs');
  symlinkSync('real.txt', join(project, 'inside-link'));
  symlinkSync(join(root, 'outside.txt'), join(project, 'outside-link'));
  symlinkSync('nowhere', join(project, 'dangling'));
  symlinkSync('sub', join(project, 'dir-link'));
  t.same(editTarget(join(project, 'plain'), project), { kind: 'file', path: join(project, 'plain') });
  t.same(editTarget(join(project, 'inside-link'), project), { kind: 'file', path: join(project, 'real.txt') });
  t.match(editTarget(join(project, 'outside-link'), project), { kind: 'refused', reason: /outside the project/ });
  t.match(editTarget(join(project, 'dangling'), project), { kind: 'refused', reason: /to nothing/ });
  t.match(editTarget(join(project, 'dir-link'), project), { kind: 'refused' });
  t.match(editTarget(join(project, 'sub'), project), { kind: 'refused', reason: /not a regular file/ });
  t.same(editTarget(join(project, 'absent'), project), { kind: 'missing' });
  t.ok(isPathWithin('/a/b', '/a'));
  t.notOk(isPathWithin('/ab', '/a'), 'a prefix is not a parent');
  t.ok(isPathWithin('/anything', '/'));
});
