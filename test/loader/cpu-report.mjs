/**
 * With MCPBASH_TEST_CPU_LOG set, each test process appends one line to that file as it
 * exits: its CPU seconds with those of the processes it waited for (the tools and binaries
 * it started), its own CPU seconds, its wall seconds, and the test file. Linux only (it
 * reads /proc/self/stat); without the variable it does nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';

const log = process.env.MCPBASH_TEST_CPU_LOG;
if (log) {
  const started = Date.now();
  process.once('exit', () => {
    try {
      // The fields after the command name: utime, stime, cutime, cstime are the 12th to 15th.
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
      const ticks = [11, 12, 13, 14].map((index) => Number(fields[index]) / 100); // USER_HZ is 100 on Linux
      const own = (ticks[0] ?? 0) + (ticks[1] ?? 0);
      const all = own + (ticks[2] ?? 0) + (ticks[3] ?? 0);
      const wall = (Date.now() - started) / 1000;
      appendFileSync(log, `${all.toFixed(2)} ${own.toFixed(2)} ${wall.toFixed(1)} ${process.argv[1]}\n`);
    } catch {
      // not Linux, or the log cannot be written: the report is only a measurement
    }
  });
}
