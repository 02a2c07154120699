import Foundation
import TripSyncPlatform

/// The itinerary page's stylesheet and Content-Security-Policy. The stylesheet holds no text of
/// the trip: the zone switch's rules name the radio buttons by number only. The local times are
/// always shown; a chosen zone's readings (`.vN`, "yours") appear beside them, under a time in
/// the narrow time column and on a flight's legs, on the line elsewhere.
enum ItineraryPageStyle {
    /// The stylesheet for a switch of `zoneCount` zones besides "each item's own zone".
    static func css(zoneCount: Int) -> String {
        var rules = base
        var selected: [String] = []
        var focused: [String] = []
        for index in 0...zoneCount {
            selected.append("#vz-\(index):checked~header label[for=vz-\(index)]")
            focused.append("#vz-\(index):focus-visible~header label[for=vz-\(index)]")
        }
        rules += selected.joined(separator: ",") + "{background:#fff;color:#123a7a;border-color:#fff;font-weight:650}\n"
        rules += focused.joined(separator: ",") + "{outline:2px solid #fff;outline-offset:2px}\n"
        if zoneCount > 0 {
            for index in 1...zoneCount {
                rules += "#vz-\(index):checked~main .v\(index){display:inline}#vz-\(index):checked~header .zn-\(index){display:inline}\n"
            }
        }
        return rules + responsive + print
    }

    /// A policy that lets the page load nothing (no script, image, font, frame, connection or
    /// form target) and apply no style but `style`, named by its SHA-256.
    static func contentSecurityPolicy(style: String) -> String {
        let hash = Data(SHA256.digest(Array(style.utf8))).base64EncodedString()
        return "default-src 'none'; style-src 'sha256-\(hash)'; script-src 'none'; img-src 'none'; font-src 'none'; "
            + "connect-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'"
    }

    static let base = """

        :root{--bg:#eef2f7;--card:#fff;--ink:#182032;--muted:#5b6678;--line:#d5dce7;--accent:#1d5fd0;--accent-soft:#e6efff;\
        --band:#fff4d4;--band-line:#f0ad1f;--band-ink:#6b4300;--stay:#e2f4ee;--stay-line:#1f9d74;--warn:#b42318;--warn-soft:#fff1ef;\
        --warn-line:#f4c0b8;--ghost:#f2f3f5;--radius:14px;--when:4.6rem;--gap:1.7rem;--dot:.75rem}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
        body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif}
        .wrap,main{max-width:46rem;margin:0 auto;padding:0 1rem}
        .vz{position:absolute;opacity:0;width:1px;height:1px;margin:0;pointer-events:none}
        header.top{background:linear-gradient(135deg,#123a7a 0%,#1d5fd0 55%,#0f8a7e 100%);color:#fff;padding:1.6rem 0 1.3rem}
        .eyebrow{margin:0;text-transform:uppercase;letter-spacing:.14em;font-size:.7rem;font-weight:650;opacity:.8}
        h1{margin:.2rem 0 .25rem;font-size:clamp(1.6rem,6vw,2.4rem);line-height:1.12;overflow-wrap:anywhere}
        .range{margin:0 0 .8rem;opacity:.92}
        .stats{list-style:none;margin:0 0 1rem;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}
        .stats li{background:rgba(255,255,255,.16);border-radius:999px;padding:.18rem .7rem;font-size:.84rem}
        .stats a{color:inherit;text-decoration:none}
        .stats .warn{background:#ffe3de;color:#8a1c10}
        .switch{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem}
        .switch-label{font-size:.78rem;opacity:.85;margin-right:.15rem}
        .switch label{cursor:pointer;border:1px solid rgba(255,255,255,.55);border-radius:999px;padding:.22rem .75rem;font-size:.84rem;user-select:none}
        .switch label:hover{background:rgba(255,255,255,.15)}
        .shown-zone,.zn{display:none}
        .made{margin:.9rem 0 0;font-size:.76rem;opacity:.8}
        .days-nav{position:sticky;top:0;z-index:2;background:rgba(238,242,247,.94);border-bottom:1px solid var(--line)}
        .days-nav ol{list-style:none;margin:0 auto;padding:.5rem 1rem;max-width:46rem;display:flex;gap:.4rem;overflow-x:auto;scrollbar-width:none}
        .days-nav a{display:block;white-space:nowrap;text-decoration:none;color:var(--ink);background:#fff;border:1px solid var(--line);border-radius:10px;padding:.18rem .6rem;font-size:.8rem;font-weight:600}
        .days-nav a span{color:var(--muted);font-weight:400}
        main{padding-top:.25rem;padding-bottom:2rem}
        .day{margin:1.6rem 0 0;scroll-margin-top:3.2rem}
        .day h2{font-size:1.05rem;margin:0 0 .65rem;display:flex;flex-wrap:wrap;gap:.45rem;align-items:baseline}
        .day h2 .dow{color:var(--accent)}
        .day h2 time{font-weight:600;color:var(--muted)}
        .items{list-style:none;margin:0;padding:0;position:relative}
        .items::before{content:"";position:absolute;left:calc(var(--when) + var(--gap) / 2 - 1px);top:.5rem;bottom:.5rem;width:2px;background:var(--line);border-radius:2px}
        .item{display:grid;grid-template-columns:var(--when) minmax(0,1fr);gap:var(--gap);margin:0 0 .7rem;position:relative}
        .item::before{content:"";position:absolute;left:calc(var(--when) + var(--gap) / 2 - var(--dot) / 2);top:1rem;width:var(--dot);height:var(--dot);border-radius:50%;background:#fff;border:2px solid var(--accent)}
        .when{text-align:right;padding-top:.7rem;font-variant-numeric:tabular-nums;line-height:1.2}
        .when .hm{display:block;font-weight:700;font-size:1.05rem}
        abbr{text-decoration:none}
        .when abbr,.when .zid{font-size:.7rem;color:var(--muted);letter-spacing:.03em;overflow-wrap:anywhere}
        .tag{display:inline-block;font-size:.68rem;font-weight:700;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
        .card{background:var(--card);border-radius:var(--radius);padding:.75rem .9rem;border:1px solid rgba(16,24,40,.06);box-shadow:0 1px 2px rgba(16,24,40,.05),0 3px 10px rgba(16,24,40,.06)}
        .title{font-size:1.02rem;margin:0;line-height:1.3;overflow-wrap:anywhere}
        .place{margin:.3rem 0 0;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere;padding-left:1.1rem;position:relative}
        .place::before{content:"";position:absolute;left:.14rem;top:.3em;width:.5rem;height:.5rem;border:2px solid currentColor;border-radius:50% 50% 50% 0;transform:rotate(-45deg)}
        .note{margin:.5rem 0 0;font-size:.88rem;white-space:pre-wrap;overflow-wrap:anywhere;color:#2f3a4d;background:#f5f7fa;border-radius:8px;padding:.4rem .6rem}
        .span{margin:.3rem 0 0;font-size:.88rem;color:var(--muted)}
        .span .hm,.cont .hm{font-weight:650;color:var(--ink)}
        .span abbr,.cont abbr{font-size:.78rem}
        .remark{margin:.4rem 0 0;font-size:.8rem;color:#8a5300}
        .attachments{list-style:none;margin:.5rem 0 0;padding:0;display:grid;gap:.3rem}
        .attachment{font-size:.86rem;border:1px dashed #c9d2df;border-radius:8px;padding:.3rem .55rem;overflow-wrap:anywhere}
        .a-name{font-weight:650}.a-meta{color:var(--muted);font-size:.78rem}.a-caption{display:block;color:#2f3a4d;white-space:pre-wrap}
        .a-get{display:block;font-size:.72rem;color:var(--muted)}.attachment .conflicts{margin:.3rem 0}
        .name-conflict{color:var(--ink);max-width:36rem}
        .shift{font-size:.66rem;font-weight:700;color:#b45309;margin-left:.12rem}
        .item.allday .card{background:var(--band);border-color:#f5d98c;border-left:5px solid var(--band-line)}
        .item.allday::before{border-color:var(--band-line);border-radius:3px}
        .item.stay .card{background:var(--stay);border-color:#bfe6d7;border-left:5px solid var(--stay-line)}
        .item.stay::before{border-color:var(--stay-line)}
        .item.travel .card{border-left:5px solid var(--accent)}
        .item.travel::before{background:var(--accent)}
        .route{display:grid;grid-template-columns:auto minmax(3rem,1fr) auto;align-items:center;gap:.7rem;margin:.65rem 0 .15rem}
        .leg{display:flex;flex-direction:column;line-height:1.15}
        .leg.arr{text-align:right}
        .leg .lbl{font-size:.64rem;text-transform:uppercase;letter-spacing:.09em;color:var(--muted);font-weight:650}
        .leg .hm{display:block;font-size:1.4rem;font-weight:750;letter-spacing:-.01em}
        .leg abbr,.leg .zid{font-size:.74rem;color:var(--muted);font-weight:600}
        .leg .city{font-size:.8rem;color:var(--muted)}
        .path{position:relative;height:1.7rem;display:flex;align-items:center;justify-content:center}
        .path::before{content:"";position:absolute;left:0;right:.35rem;top:50%;border-top:2px dashed #98b3e8}
        .path::after{content:"";position:absolute;right:0;top:calc(50% - .32rem);border-left:.55rem solid #98b3e8;border-top:.32rem solid transparent;border-bottom:.32rem solid transparent}
        .dur{position:relative;background:var(--accent-soft);color:var(--accent);font-weight:750;font-size:.8rem;border-radius:999px;padding:.12rem .6rem;white-space:nowrap;border:1px solid #c9dbfb}
        .continuing{list-style:none;margin:0 0 .6rem calc(var(--when) + var(--gap));padding:0}
        .cont a{display:flex;justify-content:space-between;align-items:baseline;gap:.6rem;text-decoration:none;color:var(--band-ink);background:repeating-linear-gradient(135deg,#fff7e2 0 10px,#fff0c9 10px 20px);border-left:5px solid var(--band-line);border-radius:10px;padding:.35rem .7rem;margin:0 0 .35rem;font-size:.85rem}
        .cont-title{font-weight:600;overflow-wrap:anywhere}
        .cont-when{white-space:nowrap;opacity:.9}
        .item.has-conflict::before,.item.ghost::before{border-color:var(--warn);background:var(--warn)}
        .conflicts{margin:.65rem 0 0;background:var(--warn-soft);border:1px solid var(--warn-line);border-radius:10px;padding:.5rem .7rem;font-size:.86rem;scroll-margin-top:3.6rem}
        .conflicts p{margin:.2rem 0}
        .c-head{color:var(--warn);font-weight:750;font-size:.72rem;text-transform:uppercase;letter-spacing:.07em}
        .c-head::before{content:"!";display:inline-block;width:1.05rem;height:1.05rem;line-height:1.05rem;text-align:center;border-radius:50%;background:var(--warn);color:#fff;margin-right:.4rem;font-size:.7rem}
        .c-field+.c-field{border-top:1px solid var(--warn-line);margin-top:.45rem;padding-top:.4rem}
        .c-name{font-weight:700}
        .conflicts ul{margin:.2rem 0;padding-left:1.1rem}
        .conflicts li{margin:.1rem 0}
        .c-val{overflow-wrap:anywhere}
        .c-by{color:var(--muted)}
        .c-badge{font-size:.64rem;background:#fff;border:1px solid var(--warn-line);border-radius:999px;padding:0 .45rem;color:var(--warn);font-weight:700;text-transform:uppercase;letter-spacing:.05em}
        .c-fix{font-size:.78rem;color:var(--muted)}
        code{font:.76rem/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;background:rgba(255,255,255,.75);padding:.05rem .3rem;border-radius:5px;overflow-wrap:anywhere}
        .ghosts{margin-top:.2rem}
        .item.ghost .card{background:var(--ghost);border:1px dashed #c3c9d3;box-shadow:none;padding:.5rem}
        .item.ghost .conflicts{margin:0}
        .item.ghost .title{font-size:.95rem}
        .item.ghost del{text-decoration-thickness:2px;color:#4a5568}
        .item.unscheduled::before{border-style:dashed;border-color:var(--muted)}
        .empty{color:var(--muted)}
        footer.bottom{border-top:1px solid var(--line);color:var(--muted);font-size:.78rem;padding:1rem 0 2.5rem}
        footer p{margin:.3rem 0}
        footer code{background:#fff}
        .v{display:none}
        .v0{display:inline}
        .yours{color:var(--accent)}
        .span .yours,.cont .yours{white-space:nowrap}.span .sep,.cont .sep{white-space:normal}
        .leg .yours{margin-bottom:.25rem}
        .yours .hm{font-weight:700}
        .yl{font-size:.66rem;font-weight:700;text-transform:uppercase;letter-spacing:.06em}
        .when .yours,.leg .yours{display:block;margin-top:.3rem;font-size:.8rem;line-height:1.15}
        .when .yours .hm,.leg .yours .hm{display:inline;font-size:inherit;letter-spacing:0}
        .when .yours abbr,.leg .yours abbr{color:inherit}
        .when .sep,.leg .sep{display:none}
        .when .yl,.leg .yl{display:block}

        """

    static let responsive = """
        @media (max-width:30rem){:root{--when:3.3rem;--gap:1.35rem;--dot:.65rem}.wrap,main,.days-nav ol{padding:0 .75rem}\
        .days-nav ol{padding-top:.5rem;padding-bottom:.5rem}.when .hm{font-size:.98rem}.card{padding:.65rem .75rem}.leg .hm{font-size:1.2rem}.route{gap:.45rem}\
        .cont a{flex-wrap:wrap}.c-fix,.a-get{display:none}}
        @media (min-width:64rem){.wrap,main,.days-nav ol{max-width:52rem}body{font-size:17px}}

        """

    static let print = """
        @media print{@page{margin:12mm}body{background:#fff;font-size:10.5pt}\
        header.top{background:none;color:#000;padding:0 0 .4rem;border-bottom:2px solid #000}\
        .wrap,main{max-width:none;padding:0}.stats li{background:none;border:1px solid #999;color:#000}\
        .switch,.days-nav{display:none}.shown-zone{display:block;margin:.3rem 0 0;font-size:.85rem}\
        .card{box-shadow:none;border:1px solid #aaa}.cont a{background:#fff;border:1px solid #aaa;border-left-width:4px}\
        .a-get{display:none}.item,.cont,.conflicts{break-inside:avoid}.day h2{break-after:avoid}.items::before{background:#bbb}\
        a{color:inherit;text-decoration:none}footer.bottom{color:#000;border-color:#999}}

        """
}
