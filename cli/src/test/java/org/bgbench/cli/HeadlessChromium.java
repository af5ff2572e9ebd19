package org.bgbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's Chromium, headless, driven through chromium-driver: the browser of the tests that read BG's pages. */
final class HeadlessChromium {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private HeadlessChromium() {}

    /** A new browser; skips the test when Chromium or its driver is missing (fails instead when CI is set). */
    static WebDriver start() {
        ServerScripts.requireOrSkip(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "Chromium and its driver (Debian packages chromium and chromium-driver)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // The driver talks to the browser over a pipe: where its DevTools port cannot be reached the session still
        // starts.
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--remote-debugging-pipe",
                "--allow-file-access-from-files",
                "--window-size=1400,1100");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /** A screenshot of what {@code browser} shows, as {@code dir/name.png} (kept as a CI artifact). */
    static void shot(WebDriver browser, Path dir, String name) throws Exception {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
