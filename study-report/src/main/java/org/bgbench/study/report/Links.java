package org.bgbench.study.report;

import java.nio.file.Path;

/** Links from the report to the result files study.json names relative to its own directory. */
record Links(Path reportDir, Path studyDir) {
    String to(String result) {
        return Html.link(reportDir, studyDir, result);
    }
}
