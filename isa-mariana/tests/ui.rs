//! Compile-time legality of MARIANA: `ui/pass_*.rs` compiles every legal arm of the
//! RAND_SET_STATE / RAND_GET_STATE tables and runs it; each `ui/fail_*.rs` is an illegal arm that
//! must fail with the diagnostic in its `.stderr` (rewrite them with `TRYBUILD=overwrite`). The
//! typed constructors of the draw family are there too: a choice the validator rejects
//! statically (RAND with NORMAL, PE_MANAGE_SEED with NONE, RAND2 with another algorithm) or an
//! instruction the generation lacks has no constructor to call. A state tensor that may lie in PSUM
//! is no RAND_SET_STATE source (SBUF only), in the per-generation API and in the generic path.
//!
//! rustc's wording changes between releases, so the `.stderr` files hold only for the toolchain
//! `rust-toolchain.toml` pins (1.95.0): on another rustc this test says so and checks nothing.

#[test]
fn ui() {
    let pin = include_str!("../../rust-toolchain.toml");
    let rustc = std::process::Command::new("rustc")
        .arg("--version")
        .output();
    let version = rustc
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let pinned = version
        .split(' ')
        .nth(1)
        .is_some_and(|v| pin.contains(&format!("\"{v}\"")));
    if !pinned {
        eprintln!(
            "ui: skipped on `{}`: the .stderr files are for the pinned toolchain",
            version.trim()
        );
        return;
    }
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_*.rs");
    t.compile_fail("tests/ui/fail_*.rs");
}
