/**
 * Progress reporting for long work: a bar on an interactive terminal (stderr), plain lines otherwise, so logs
 * in CI stay readable. Injected as a parameter so tests can silence it.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Starts a task of `total` units. */
  start(label: string, total: number): void;
  /** Sets how many units are done. */
  update(done: number): void;
  /** Ends the current task. */
  stop(): void;
  /** A plain log line. */
  log(message: string): void;
}

export const silentProgress: Progress = { start() {}, update() {}, stop() {}, log() {} };

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return lineProgress(stream);
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(label, total) {
      bar = new cliProgress.SingleBar(
        {
          format: `${label.padEnd(28)} {bar} {percentage}% {value}/{total} {duration_formatted}`,
          stream,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    update(done) {
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
    log(message) {
      stream.write(`${message}\n`);
    },
  };
}

/** Plain lines: start, every 25%, and the end, with elapsed seconds. */
function lineProgress(stream: NodeJS.WriteStream): Progress {
  let label = '';
  let total = 0;
  let next = 0;
  let started = 0;
  const secs = () => ((performance.now() - started) / 1000).toFixed(1);
  return {
    start(l, t) {
      label = l;
      total = t;
      next = 0.25;
      started = performance.now();
      stream.write(`${label}: started (${t})\n`);
    },
    update(done) {
      if (total > 0 && done / total >= next && done < total) {
        stream.write(`${label}: ${Math.floor((done / total) * 100)}% (${secs()} s)\n`);
        while (done / total >= next) next += 0.25;
      }
    },
    stop() {
      stream.write(`${label}: done in ${secs()} s\n`);
    },
    log(message) {
      stream.write(`${message}\n`);
    },
  };
}
