package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every relative link of the front page and of docs/ names a file that exists, and a heading of it when it names one. */
class DocLinksTest {
    @TempDir
    Path dir;

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsPointsToAFileAndHeadingThatExist() throws IOException {
        Path root = repositoryRoot();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        DocLinks links = new DocLinks();
        List<String> broken = new ArrayList<>();
        pages.forEach(p -> broken.addAll(links.broken(p)));
        assertThat(pages).hasSizeGreaterThan(10);
        assertThat(broken).isEmpty();
    }

    @Test
    void aMissingFileAndAMissingHeadingAreBothFound() throws IOException {
        Files.writeString(dir.resolve("other.md"), "# Open model (issue 19)\n\n## Open model (issue 19)\n");
        Files.writeString(
                dir.resolve("page.md"),
                String.join(
                        "\n",
                        "# A page",
                        "[fine](other.md#open-model-issue-19) [repeat](other.md#open-model-issue-19-1) [self](#a-page)",
                        "[gone](missing.md) [no heading](other.md#open-model) [web](https://example.org/x.md)",
                        "`[code](not-a-link.md)`",
                        "```",
                        "[fenced](not-a-link-either.md)",
                        "```"));
        assertThat(new DocLinks().broken(dir.resolve("page.md")))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).contains("missing.md (no such file)"))
                .anySatisfy(p -> assertThat(p).contains("other.md#open-model (no heading"));
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(DocLinks.slug("Standard parts (issue 43): what the removed parts cost or gained"))
                .isEqualTo("standard-parts-issue-43-what-the-removed-parts-cost-or-gained");
        assertThat(DocLinks.slug("`bg verify` and `--repair`")).isEqualTo("bg-verify-and---repair");
        assertThat(DocLinks.slug("BG's CPU per action, before and after"))
                .isEqualTo("bgs-cpu-per-action-before-and-after");
    }

    /** The repository's root: the nearest folder above the working directory that holds README.md and docs/. */
    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "no README.md and docs/ above " + Path.of("").toAbsolutePath());
    }
}
