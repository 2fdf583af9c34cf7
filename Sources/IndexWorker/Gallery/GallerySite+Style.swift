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
        figure picture{display:block}
        .none{display:flex;width:100%;aspect-ratio:1;align-items:center;justify-content:center;background:#f3f3f3;color:#666;font-size:.85rem;cursor:help}
        .failed{color:#a33}
        figcaption{font-size:.75rem;overflow:hidden;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-clamp:2}
        a.tile{display:block;color:inherit;text-decoration:none}
        a.tile:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
        figure:target a.tile{outline:3px solid #1a5fb4}
        figure.open{grid-column:1/-1}
        figure.open a.tile{display:none}
        .detail{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start;position:relative;padding:2rem 1rem 1rem;background:#f7f7f7;border:1px solid #ddd;border-radius:.3rem}
        .detail img{width:100%;max-width:400px;height:auto;aspect-ratio:auto;background:none}
        .detail h3{margin:0 2rem .5rem 0;font-size:1.1rem}
        .detail dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem .75rem;margin:0 0 .5rem}
        .detail dt{color:#666}
        .detail dd{margin:0}
        .detail p{margin:.25rem 0}
        .close{position:absolute;top:.1rem;right:.6rem;font-size:1.5rem;text-decoration:none;color:#444}
        .more{margin:1rem 0}

        """
}
