package org.bgbench.study;

import java.io.IOException;
import java.nio.file.Path;

/** Writes a study's report from its study.json; called after every point. */
public interface StudyReportWriter {
    /** Writes nothing: until a report is wired in, study.json and the CSVs are the study's output. */
    StudyReportWriter NONE = (studyJson, reportHtml) -> {};

    void write(Path studyJson, Path reportHtml) throws IOException;
}
