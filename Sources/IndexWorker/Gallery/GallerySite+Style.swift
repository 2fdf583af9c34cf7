extension GallerySite {
    /// `gallery/style.css`, shared by every page: a grid that fits a phone or a wide screen.
    static let style = """
        body{font-family:system-ui,sans-serif;margin:0 auto;max-width:80rem;padding:0 1rem 2rem;color:#222;line-height:1.4}
        header{padding:.75rem 0;border-bottom:1px solid #ddd}
        h1{font-size:1.4rem;margin:.25rem 0}
        h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
        small{color:#666;font-weight:normal}
        .totals{margin:.25rem 0 .75rem;color:#555}
        #q{width:100%;max-width:30rem;font-size:1rem;padding:.5rem;box-sizing:border-box}
        .letters{display:flex;flex-wrap:wrap;gap:.4rem;margin:1rem 0}
        .letters a{min-width:2.75rem;padding:.35rem .5rem;border:1px solid #ccc;border-radius:.3rem;text-align:center;text-decoration:none}
        .letters small{display:block;font-size:.7rem}
        .artists{columns:16rem;padding:0;list-style:none}
        .artists li{break-inside:avoid;padding:.15rem 0}
        .pager{margin:1rem 0}
        section{content-visibility:auto;contain-intrinsic-size:auto 480px}
        .works{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:.75rem}
        figure{margin:0;min-width:0}
        figure img{display:block;width:100%;aspect-ratio:1;object-fit:contain;background:#f3f3f3}
        .none{display:flex;width:100%;aspect-ratio:1;align-items:center;justify-content:center;background:#f3f3f3;color:#666;font-size:.85rem;cursor:help}
        .failed{color:#a33}
        figcaption{font-size:.75rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .more{margin:1rem 0}

        """
}
