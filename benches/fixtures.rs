//! `collidoscope check` on 10,000 fixture files (8 shapes, 28 pinned pairs each, written to a
//! temporary folder once): files per second on one core and on all cores. The speed-up over
//! one core is the ratio of the two; it is bounded by the core count (2 on the reference
//! machine) and by reading files.

use collidoscope::cli::check_files;
use collidoscope::fixture;
use collidoscope::scene::{self, generate};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

const FILES: usize = 10_000;

fn write_fixtures(dir: &std::path::Path) -> Vec<PathBuf> {
    (0..FILES)
        .map(|i| {
            let scene = generate::random_scene(generate::Generate {
                count: 8,
                seed: i as u64 + 1,
                overlaps: 3.0,
            });
            let path = dir.join(format!("case-{i:05}.json"));
            scene::save(&fixture::make(&scene, None), &path).expect("the folder is writable");
            path
        })
        .collect()
}

fn bench_check(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files = write_fixtures(dir.path());
    assert!(check_files(&files).iter().all(|f| f.ok));
    let mut group = c.benchmark_group("check 10k fixtures");
    group.throughput(Throughput::Elements(FILES as u64));
    group.sample_size(10);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    group.bench_function("one core", |b| {
        b.iter(|| one.install(|| black_box(check_files(&files))))
    });
    group.bench_function(
        format!("all cores ({})", rayon::current_num_threads()),
        |b| b.iter(|| black_box(check_files(&files))),
    );
    group.finish();
}

criterion_group!(benches, bench_check);
criterion_main!(benches);
