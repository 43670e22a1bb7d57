# SPDX-License-Identifier: GPL-2.0-only
"""lava_runsh.py - write the run.sh LAVA would make of a test definition.

  lava_runsh.py TESTDEF REPO OUT [NAME=VALUE...]

Line for line what lava-dispatcher 2023.01 writes (TestOverlayAction.
handle_parameters and TestRunnerAction.run in lava_dispatcher/actions/
deploy/testdef.py): the definition's params, then the job's parameters
(NAME=VALUE), as shell variables; set -e; TESTRUN_ID; cd to the checkout;
the STARTRUN signal; the run steps; the ENDRUN signal.  The device then
runs it as lava-test-runner does: lava-test-shell --output_dir DIR sh -e
run.sh, with LAVA's helpers (lava-test-case ...) on PATH.
"""
import re
import sys

import yaml


def params(testdef, job):
    out = ["###default parameters from test definition###\n"]
    for key in ("params", "parameters"):
        for name, value in (testdef.get(key) or {}).items():
            out.append("%s='%s'\n" % (name, value if value else ""))
    out.append("######\n")
    out.append("###test parameters from job submission###\n")
    for name, value in job.items():
        out.append("%s='%s'\n" % (name, value if value else ""))
    out.append("######\n")
    return out


def main():
    path, repo, out = sys.argv[1:4]
    job = dict(a.split("=", 1) for a in sys.argv[4:])
    testdef = yaml.safe_load(open(path))
    with open(out, "w") as runsh:
        for line in params(testdef, job):
            runsh.write(line)
        runsh.write("set -e\n")
        runsh.write("set -x\n")
        runsh.write("export TESTRUN_ID=0_%s\n" % testdef["metadata"]["name"])
        runsh.write("cd %s\n" % repo)
        runsh.write("UUID=`cat uuid`\n")
        runsh.write("set +x\n")
        runsh.write('echo "<LAVA_SIGNAL_STARTRUN $TESTRUN_ID $UUID>"\n')
        runsh.write("set -x\n")
        for cmd in [s for s in testdef.get("run", {}).get("steps", []) if s is not None]:
            if "--cmd" in cmd or "--shell" in cmd:
                cmd = re.sub(r"\$(\d+)\b", r"\\$\1", cmd)
            runsh.write("%s\n" % cmd)
        runsh.write("set +x\n")
        runsh.write('echo "<LAVA_SIGNAL_ENDRUN $TESTRUN_ID $UUID>"\n')


if __name__ == "__main__":
    main()
