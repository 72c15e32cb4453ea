import { beforeAll } from 'vitest';
import { clock } from '../infra/clock';

/*
 * Every server test file starts on the real time. The files of one worker share its modules
 * (`isolate: false`), so a clock moved on by an earlier file (each staff code moves it a 30 s step,
 * and is good once) would otherwise reach the next: the shared clock is put back before each file.
 */
beforeAll(() => {
  clock.advance(Date.now() - clock.now().getTime());
});
