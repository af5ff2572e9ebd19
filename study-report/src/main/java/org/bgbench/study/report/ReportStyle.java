package org.bgbench.study.report;

/** The report's inline style sheet: readable on a screen and on paper, no web fonts. */
final class ReportStyle {
    private ReportStyle() {}

    static final String CSS = """
            body { font-family: Helvetica, Arial, sans-serif; color: #212121; max-width: 880px; margin: 24px auto;
                   padding: 0 16px; line-height: 1.45; }
            h1 { font-size: 24px; margin: 0 0 6px; }
            h2 { font-size: 19px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
            h3 { font-size: 15px; margin: 18px 0 6px; }
            code { font-family: Menlo, Consolas, monospace; font-size: 13px; background: #f4f4f4; padding: 1px 4px;
                   border-radius: 3px; overflow-wrap: anywhere; }
            blockquote { margin: 8px 0; padding: 6px 12px; border-left: 3px solid #9e9e9e; background: #fafafa; }
            .status { color: #555; }
            .incomplete { color: #b71c1c; font-weight: bold; }
            .complete { color: #1b5e20; }
            table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
            th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; }
            thead th { background: #f5f5f5; }
            th.sub { font-weight: normal; color: #555; }
            table.numbers td, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            table.numbers tbody th { text-align: right; background: #fafafa; }
            td.paper { color: #555; background: #fcfcfc; }
            .runs { display: block; font-size: 11px; color: #777; }
            .runs a, table.numbers a { color: inherit; }
            .value { font-weight: bold; }
            td.paper .value { font-weight: normal; }
            .none { color: #888; }
            .unit { font-size: 12px; color: #666; margin-top: 2px; }
            .kind { font-size: 12px; color: #666; }
            table.verdicts { width: 100%; }
            table.verdicts > tbody > tr > td:first-child { white-space: nowrap; }
            table.table-rows { width: auto; margin: 0; }
            table.table-rows td { white-space: nowrap; }
            table.verdicts > tbody > tr > td:nth-child(2), table.verdicts > tbody > tr > td:nth-child(3) { width: 38%; }
            .badge { display: inline-block; padding: 1px 7px; border-radius: 9px; font-size: 12px; white-space: nowrap; }
            .badge.agrees { background: #e8f5e9; color: #1b5e20; border: 1px solid #a5d6a7; }
            .badge.differs { background: #ffebee; color: #b71c1c; border: 1px solid #ef9a9a; }
            .badge.not_enough_data { background: #f5f5f5; color: #616161; border: 1px solid #bdbdbd; }
            tr.rows > td { border-top: none; }
            .scroll { overflow-x: auto; }
            svg.chart { display: block; max-width: 100%; height: auto; }
            svg.chart a circle:hover, svg.chart a rect:hover { stroke: #212121; stroke-width: 2; }
            td.error { font-family: Menlo, Consolas, monospace; font-size: 12px; color: #b71c1c; }
            dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; }
            dt { font-weight: bold; }
            dd { margin: 0; }
            @media print { body { margin: 0; max-width: none; } .scroll { overflow: visible; } }
            """;
}
