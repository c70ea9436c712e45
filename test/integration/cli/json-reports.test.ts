/**
 * One convention for every JSON report (docs/CLI.md): a single line of compact JSON,
 * `schemaVersion` first, each command's fields under 1.x's names (validate's messages have
 * a `level`, doctor's findings a `severity`).
 */
import t from 'tap';
import {
  doctorReportSchema,
  healthReportSchema,
  registryRefreshSchema,
  registryStatusSchema,
  validateReportSchema,
} from '../../helpers/cli-output-schemas.js';
import { cli, matchesSchema, newProject, sharedCliEnv } from '../../helpers/cli-projects.js';

const env = sharedCliEnv({ PATH: `/usr/bin:/bin` });

t.test('validate, doctor, registry and health print one line of JSON, schemaVersion first', async (t) => {
  const root = await newProject(t, env, 'reports');
  const reports: Array<[string[], object]> = [
    [['validate', '--json'], validateReportSchema],
    [['doctor', '--json'], doctorReportSchema],
    [['registry', 'refresh'], registryRefreshSchema],
    [['registry', 'status'], registryStatusSchema],
    [['health'], healthReportSchema],
  ];
  for (const [args, schema] of reports) {
    const what = args.join(' ');
    const run = await cli(args, env, root);
    t.match(run.stdout, /^\{.*\}\n$/, `${what}: one line`);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    t.equal(Object.keys(report)[0], 'schemaVersion', `${what}: schemaVersion first`);
    t.equal(report.schemaVersion, 1, what);
    matchesSchema(t, report, schema, what);
    if (args[0] === 'validate')
      t.ok(
        (report.messages as Array<Record<string, unknown>>).every((m) => 'level' in m && !('severity' in m)),
        "validate keeps 1.x's level",
      );
    if (args[0] === 'doctor')
      t.ok(
        (report.findings as Array<Record<string, unknown>>).every((f) => 'severity' in f && !('level' in f)),
        "doctor keeps 1.x's severity",
      );
  }
});
