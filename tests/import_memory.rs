//! A level's memory follows the tiles that hold something, not its cells: a small zlib map of
//! an 8192 x 8192 empty layer took 4.2 GB (XML) and 530 MB (JSON) when every cell was kept
//! (issue 60). Measured here as the most bytes live at once on the importing thread.

use collidoscope::import::{Convert, import_bytes};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::path::Path;

/// The system allocator, keeping each thread's live bytes and the most live at once.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(change: isize) {
    // `try_with`: a thread's storage may be gone while it ends.
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + change);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The most bytes live at once above those live before, while `run` runs; and its result.
fn peak<T>(run: impl FnOnce() -> T) -> (isize, T) {
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let out = run();
    (PEAK.with(Cell::get) - before, out)
}

/// `cells` empty cells and one tile (gid 1) in the last, as Tiled writes base64 zlib data.
fn zlib_layer(cells: usize) -> String {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    let mut left = (cells - 1) * 4;
    while left > 0 {
        let k = left.min(zeros.len());
        encoder.write_all(&zeros[..k]).unwrap();
        left -= k;
    }
    encoder.write_all(&1u32.to_le_bytes()).unwrap();
    base64(&encoder.finish().unwrap())
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

const TILESET_XML: &str = r#"<tileset firstgid="1" name="blocks" tilewidth="16" tileheight="16" tilecount="1" columns="1"><image source="blocks.png" width="16" height="16"/><tile id="0"><objectgroup><object id="1" x="0" y="0" width="16" height="16"/></objectgroup></tile></tileset>"#;

#[test]
fn an_empty_layer_of_67_million_cells_costs_what_its_tiles_cost() {
    let n = 8192;
    let data = zlib_layer(n * n);
    let tmx = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{n}" height="{n}" tilewidth="16" tileheight="16" infinite="0">
 {TILESET_XML}
 <layer id="1" name="ground" width="{n}" height="{n}"><data encoding="base64" compression="zlib">{data}</data></layer>
</map>"#
    );
    let tmj = format!(
        r#"{{"type":"map","orientation":"orthogonal","width":{n},"height":{n},"tilewidth":16,"tileheight":16,"infinite":false,
        "tilesets":[{{"firstgid":1,"name":"blocks","tilewidth":16,"tileheight":16,"tilecount":1,"columns":1,"image":"blocks.png","imagewidth":16,"imageheight":16,
          "tiles":[{{"id":0,"objectgroup":{{"type":"objectgroup","name":"","objects":[{{"id":1,"x":0,"y":0,"width":16,"height":16,"rotation":0}}]}}}}]}}],
        "layers":[{{"type":"tilelayer","name":"ground","width":{n},"height":{n},"x":0,"y":0,"encoding":"base64","compression":"zlib","data":"{data}"}}]}}"#
    );
    for (file, text) in [("huge.tmx", tmx), ("huge.tmj", tmj)] {
        let (bytes, set) = peak(|| {
            import_bytes(
                Path::new(file),
                text.as_bytes(),
                Convert { scale: 1.0 },
                false,
            )
        });
        let set = set.unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            set.scene.shapes.len(),
            1,
            "{file}: the one tile in the last cell"
        );
        let corner = set.scene.shapes[0].placed.pose.position;
        assert!(
            corner.x.max(-corner.y) > 16.0 * 8190.0,
            "{file}: the tile is in the last cell: {corner}"
        );
        // The map is 350 KB of text; each of its 67 million cells used to be kept.
        assert!(
            bytes < 16 << 20,
            "{file}: {} MB live at once for a map of {} KB",
            bytes >> 20,
            text.len() >> 10
        );
    }
}
