// The one allow-list of the referee scripts (scripts/conformance.sh and scripts/cluster.sh),
// and the rule both apply with it: a check the conformance suite reports as a WARNING fails its
// scenario, on every leg, as a FAILURE does, unless the warning is listed in ALLOWED below.
//
// The list is expected to be empty. An entry names a scenario and the id of one of its checks
// (the `id` of the check in the suite's checks.json) whose warning stands for a SHOULD of the
// specification that this project decided not to follow, and says why:
//
//   {
//     scenario: 'the-scenario',          // as the suite names it (auth/<name> for auth ones)
//     check: 'the-check-id',             // the check's id in checks.json
//     spec: '2026-07-28/basic/x.mdx',    // the page under ../shared/mcp-spec/ with the SHOULD
//     says: '... SHOULD ...',            // the spec's own words, quoted
//     reason: 'why the project does not follow it',
//   },
//
// An entry applies to every leg that runs that scenario. An entry that is incomplete, cites no
// SHOULD or is listed twice stops the script (loadAllowed throws): a list that is not what it
// says it is allows nothing. Sourced by the scripts' result tables with
// require('<root>/scripts/lib/allowed-warnings.js').
'use strict';

const ALLOWED = [];

const FIELDS = ['scenario', 'check', 'spec', 'says', 'reason'];

// The list, checked: every field a non-empty string, `says` a SHOULD (a MUST is not the
// project's to waive, nor is a warning the spec does not ask for), no pair listed twice.
function loadAllowed(list = ALLOWED) {
  const seen = new Set();
  return list.map((entry, i) => {
    for (const f of FIELDS) {
      if (typeof entry[f] !== 'string' || entry[f].trim() === '') {
        throw new Error(`allowed-warnings.js entry ${i}: "${f}" must be a non-empty string`);
      }
    }
    if (!/\bSHOULD\b/.test(entry.says)) {
      throw new Error(`allowed-warnings.js entry ${i} (${entry.scenario} ${entry.check}): ` +
        '"says" must quote the SHOULD of the spec that is not followed');
    }
    const key = `${entry.scenario}\u0000${entry.check}`;
    if (seen.has(key)) {
      throw new Error(`allowed-warnings.js: ${entry.scenario} ${entry.check} is listed twice`);
    }
    seen.add(key);
    return entry;
  });
}

// The WARNING checks of one scenario, split into the ones that count (fail the scenario) and
// the ones the list allows.
function splitWarnings(allowed, scenario, checks) {
  const warned = (checks || []).filter((c) => c.status === 'WARNING');
  const isAllowed = (c) => allowed.some((a) => a.scenario === scenario && a.check === c.id);
  return {
    counted: warned.filter((c) => !isAllowed(c)),
    allowed: warned.filter(isAllowed),
  };
}

// One line per warning that counts: where (leg, scenario), which check, and what the suite said.
function describeWarning(leg, scenario, check) {
  const said = check.errorMessage || check.description || check.name || '';
  return `warning: ${leg} ${scenario} ${check.id}${said ? `: ${said}` : ''}`;
}

module.exports = { ALLOWED, loadAllowed, splitWarnings, describeWarning };
