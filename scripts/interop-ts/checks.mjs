// The checks of the interop clients (ts_client.mjs, ts_auth_client.mjs): one line per check,
// "ok   <check>" or "FAIL <check>: <why>", and the verdict at the end.

/** How long one step may take. */
export const STEP_TIMEOUT_MS = 20_000;

let passed = 0;
let failed = 0;

/** Records a check that passed (`ok`) or failed (saying `why`). */
export function record(name, ok, why = '') {
    if (ok) {
        passed += 1;
        console.log(`ok   ${name}`);
    } else {
        failed += 1;
        console.log(`FAIL ${name}: ${why}`);
    }
}

/** Runs one step with a bounded wait; `expect` returns why the answer is wrong, or null. */
export async function check(name, run, expect) {
    let timer;
    try {
        const timeout = new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer in ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
        });
        const value = await Promise.race([run(), timeout]);
        const why = expect(value);
        record(name, why === null, why ?? '');
        return value;
    } catch (e) {
        record(name, false, `${e?.constructor?.name}: ${e?.message}`);
        return undefined;
    } finally {
        clearTimeout(timer);
    }
}

/** Prints "N passed, N failed" and exits, 1 if any check failed. */
export function verdict() {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}
