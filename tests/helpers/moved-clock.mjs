// Preloaded into a test's server process (NODE_OPTIONS=--import): its clock runs ahead of the real
// one by the milliseconds written in the file MOVED_CLOCK_FILE names, read again whenever the file
// changes. A test moves the server to a scheduled time instead of waiting for it; timers are not
// touched, so the publisher's ticks keep their pace. Nothing in the product reads that variable.
import fs from 'node:fs';

const file = process.env.MOVED_CLOCK_FILE;
if (file) {
  const RealDate = Date;
  const realNow = () => RealDate.now();
  let ahead = 0;
  const read = () => {
    ahead = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) || 0 : 0;
  };
  read();
  fs.watchFile(file, { interval: 100 }, read).unref();
  class MovedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + ahead);
      else super(...args);
    }
    static now() {
      return realNow() + ahead;
    }
  }
  globalThis.Date = MovedDate;
}
