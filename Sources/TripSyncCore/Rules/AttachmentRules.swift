/// The schema 4 rules of attachments that need the whole document (docs/FORMAT.md,
/// "Schema 4"): every dot and `seen` against the clock (attachments precede the clock in
/// canonical order, so the decoder cannot check them as it goes), and the item each names.
package enum AttachmentRules {
    /// Why `name` cannot be an attachment's name (a file name at `extract`), or nil.
    package static func nameProblem(_ name: String) -> String? {
        if let violation = TextRule.attachmentName.violation(in: name) {
            return TextRule.attachmentName.message(for: violation, what: "an attachment name")
        }
        if name == "." || name == ".." || name.contains("/") || name.contains("\\") {
            return "expected an attachment name that is a file name (no \"/\" or \"\\\", not \".\" or \"..\"), found \"\(name.prefix(80))\""
        }
        return nil
    }

    /// Every error and warning of `document`'s attachments, with its pointer.
    static func issues(in document: TripDocument) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let clock = document.clock
        func checkRegister<V>(_ register: Register<V>?, _ pointer: String) {
            guard let register else { return }
            if !clock.sees(register.rev) {
                issues.append(DocumentIssues.dotAboveClock(register.rev, clockValue: clock[register.rev.device], pointer: pointer + "/rev"))
            }
            for (index, conflict) in register.conflicts.enumerated() where !clock.sees(conflict.rev) {
                issues.append(DocumentIssues.dotAboveClock(conflict.rev, clockValue: clock[conflict.rev.device], pointer: pointer + "/conflicts/\(index)/rev"))
            }
        }
        for (id, attachment) in document.attachments {
            let pointer = "/attachments/\(id)"
            checkRegister(attachment.blob, pointer + "/blob")
            checkRegister(attachment.caption, pointer + "/caption")
            checkRegister(attachment.deleted, pointer + "/deleted")
            checkRegister(attachment.item, pointer + "/item")
            checkRegister(attachment.name, pointer + "/name")
            for (index, deletion) in (attachment.deleted?.versions ?? []).enumerated() {
                let base = index == 0 ? pointer + "/deleted/value/seen" : pointer + "/deleted/conflicts/\(index - 1)/value/seen"
                for (device, counter) in deletion.value.seen.entries where counter > clock[device] {
                    issues.append(DocumentIssues.entryAboveClock("a detach's seen", counter: counter, clockValue: clock[device], pointer: base + "/\(device)"))
                }
            }
            if let item = attachment.item?.value, document.items.index(forKey: item) == nil, document.tombstones.index(forKey: item) == nil {
                issues.append(
                    ValidationIssue(
                        .warning, pointer: pointer + "/item/value",
                        message: "the attachment belongs to item \(item), which the trip does not hold (it stays hidden)"))
            }
        }
        return issues
    }
}
