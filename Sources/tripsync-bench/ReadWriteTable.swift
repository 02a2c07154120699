/// Renders a `ReadWriteReport` as Markdown: the throughput table, then the memory table.
enum ReadWriteTable {
    static func markdown(_ report: ReadWriteReport) -> String {
        let mb = { (bytes: Int) in Stats.format(Stats.megabytes(bytes), decimals: 2) }
        let rate = { (value: Double?) in value.map { Stats.format($0) } ?? "n/a" }
        var lines = [
            "Command: `\(report.command)`",
            "nproc: \(report.nproc)" + (report.cpu.map { ", CPU: \($0)" } ?? ""),
            "",
            "| size (items) | JSON MB | read+validate MB/s | read .gz MB/s | write MB/s | gzip write MB/s | peak RSS (×JSON) | Python json.loads MB/s | zlib inflate MB/s |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in report.results {
            let multiple = Double(result.peakRSSBytes) / Double(result.jsonBytes)
            let cells = [
                String(result.items), mb(result.jsonBytes), rate(result.readMBps), rate(result.readGzipMBps),
                rate(result.writeMBps), rate(result.gzipWriteMBps),
                "\(Stats.format(Stats.megabytes(result.peakRSSBytes))) MB (\(Stats.format(multiple))×)",
                rate(result.pythonJSONLoadsMBps), rate(result.zlibInflateMBps),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "| size (items) | JSON MB | .gz MB | peak RSS MB | baseline RSS MB | peak − baseline MB | (peak − baseline) ×JSON |",
            "|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in report.results {
            let above = Double(result.peakAboveBaselineBytes) / Double(result.jsonBytes)
            let cells = [
                String(result.items), mb(result.jsonBytes), mb(result.gzipBytes), mb(result.peakRSSBytes),
                mb(report.baselineRSSBytes), mb(result.peakAboveBaselineBytes), Stats.format(above),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let repeats = report.results.map { "\($0.items): \($0.repeats)" }.joined(separator: ", ")
        lines += [
            "",
            "MB = 10^6 bytes. All throughputs are MB of JSON text per second (for .gz reads, inflate and",
            "zlib columns: JSON produced; for gzip write: JSON consumed, canonical encoding included, libdeflate level 1).",
            "Each time is the median of the timed runs (\(repeats)) after one warm-up run; bytes are in memory.",
            "Our reads are timed until the validated document is in hand (results kept until all runs are",
            "done: freeing is not timed). `json.loads` runs in a plain loop, each result freed within its own",
            "timed run: its fastest way here (kept results made it 2.4x slower at 100,000 items, measured).",
            "Peak RSS is VmHWM of a fresh child running `reader.read(path:)` on the plain file; the baseline",
            "child creates the reader and reads nothing. Python floors: same files, same run.",
        ]
        return lines.joined(separator: "\n")
    }
}
