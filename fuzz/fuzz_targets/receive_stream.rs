//! Fuzz the window's stream reader (`capture::live::receive`), what reads a game's capture
//! from the loopback socket: any bytes must give frames and then the end, or one error naming
//! the stream, never a panic; what it keeps (one capture, or several when a header begins
//! another) must read back as captures with exactly the frames it counted (a refused line ends
//! the connection with every frame before it kept).

#![no_main]

use collidoscope::capture::CaptureReader;
use collidoscope::capture::live::receive;
use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use std::io::{Cursor, Write};
use std::path::Path;
use std::rc::Rc;

/// One capture kept, in memory.
struct Part(Rc<RefCell<Vec<Vec<u8>>>>, usize);

impl Write for Part {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut()[self.1].extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let parts = Rc::new(RefCell::new(Vec::new()));
    let name = Path::new("the game on 127.0.0.1:9713");
    let (frames, result) = receive(
        name,
        Cursor::new(data.to_vec()),
        |_, n| {
            parts.borrow_mut().push(Vec::new());
            assert_eq!(parts.borrow().len() as u64, n);
            Ok(Part(parts.clone(), n as usize - 1))
        },
        |_, _| {},
    );
    if let Err(e) = &result {
        assert!(e.to_string().contains("127.0.0.1:9713"), "{e}");
    }
    let mut again = 0;
    for kept in parts.take() {
        let mut reader = CaptureReader::new(Path::new("kept"), Cursor::new(kept))
            .expect("what the window kept reads as a capture");
        while let Some(_frame) = reader.next_frame().expect("every kept frame reads again") {
            again += 1;
        }
    }
    assert_eq!(again, frames);
});
