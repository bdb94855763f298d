(module
  ;; SHA-256's compression function (FIPS 180-4), for `core/sha256.ts`; compiled to
  ;; `core/wasm/sha256-bytes.ts` by `node scripts/build-sha256-wasm.js`.
  ;; Memory, as i32 words in WebAssembly's little-endian order:
  ;;   0..255    the 64 round constants K (FIPS 180-4 4.2.2)
  ;;   256..287  the initial hash H(0) (5.3.3)
  ;;   288..319  the running hash
  ;;   320..575  the message schedule W
  ;;   1024..    message blocks as the caller wrote them (bytes; read big-endian)
  (memory (export "memory") 1)
  (data (i32.const 0) "\98\2f\8a\42\91\44\37\71\cf\fb\c0\b5\a5\db\b5\e9\5b\c2\56\39\f1\11\f1\59\a4\82\3f\92\d5\5e\1c\ab\98\aa\07\d8\01\5b\83\12\be\85\31\24\c3\7d\0c\55\74\5d\be\72\fe\b1\de\80\a7\06\dc\9b\74\f1\9b\c1\c1\69\9b\e4\86\47\be\ef\c6\9d\c1\0f\cc\a1\0c\24\6f\2c\e9\2d\aa\84\74\4a\dc\a9\b0\5c\da\88\f9\76\52\51\3e\98\6d\c6\31\a8\c8\27\03\b0\c7\7f\59\bf\f3\0b\e0\c6\47\91\a7\d5\51\63\ca\06\67\29\29\14\85\0a\b7\27\38\21\1b\2e\fc\6d\2c\4d\13\0d\38\53\54\73\0a\65\bb\0a\6a\76\2e\c9\c2\81\85\2c\72\92\a1\e8\bf\a2\4b\66\1a\a8\70\8b\4b\c2\a3\51\6c\c7\19\e8\92\d1\24\06\99\d6\85\35\0e\f4\70\a0\6a\10\16\c1\a4\19\08\6c\37\1e\4c\77\48\27\b5\bc\b0\34\b3\0c\1c\39\4a\aa\d8\4e\4f\ca\9c\5b\f3\6f\2e\68\ee\82\8f\74\6f\63\a5\78\14\78\c8\84\08\02\c7\8c\fa\ff\be\90\eb\6c\50\a4\f7\a3\f9\be\f2\78\71\c6\67\e6\09\6a\85\ae\67\bb\72\f3\6e\3c\3a\f5\4f\a5\7f\52\0e\51\8c\68\05\9b\ab\d9\83\1f\19\cd\e0\5b")
  (func $be (param $x i32) (result i32)
    (i32.or
      (i32.and (i32.rotl (local.get $x) (i32.const 8)) (i32.const 0x00ff00ff))
      (i32.and (i32.rotr (local.get $x) (i32.const 8)) (i32.const 0xff00ff00))))
  ;; Start a hash: the running hash := the initial words.
  (func (export "init")
    (local $i i32)
    (loop $copy
      (i32.store offset=288 (local.get $i) (i32.load offset=256 (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $copy (i32.lt_u (local.get $i) (i32.const 32)))))
  ;; Fold $n 64-byte blocks at $p into the running hash.
  (func (export "blocks") (param $p i32) (param $n i32)
    (local $end i32) (local $i i32) (local $x i32) (local $y i32) (local $t1 i32) (local $t2 i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $e i32) (local $f i32) (local $g i32) (local $h i32)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 6))))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $i (i32.const 0))
        (loop $w16
          (i32.store offset=320 (local.get $i) (call $be (i32.load (i32.add (local.get $p) (local.get $i)))))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br_if $w16 (i32.lt_u (local.get $i) (i32.const 64))))
        (loop $w64
          (local.set $x (i32.load offset=260 (local.get $i)))
          (local.set $y (i32.load offset=312 (local.get $i)))
          (i32.store offset=320 (local.get $i)
            (i32.add
              (i32.add (i32.load offset=256 (local.get $i))
                (i32.xor (i32.xor (i32.rotr (local.get $x) (i32.const 7)) (i32.rotr (local.get $x) (i32.const 18))) (i32.shr_u (local.get $x) (i32.const 3))))
              (i32.add (i32.load offset=292 (local.get $i))
                (i32.xor (i32.xor (i32.rotr (local.get $y) (i32.const 17)) (i32.rotr (local.get $y) (i32.const 19))) (i32.shr_u (local.get $y) (i32.const 10))))))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br_if $w64 (i32.lt_u (local.get $i) (i32.const 256))))
        (local.set $a (i32.load offset=288 (i32.const 0)))
        (local.set $b (i32.load offset=292 (i32.const 0)))
        (local.set $c (i32.load offset=296 (i32.const 0)))
        (local.set $d (i32.load offset=300 (i32.const 0)))
        (local.set $e (i32.load offset=304 (i32.const 0)))
        (local.set $f (i32.load offset=308 (i32.const 0)))
        (local.set $g (i32.load offset=312 (i32.const 0)))
        (local.set $h (i32.load offset=316 (i32.const 0)))
        (local.set $i (i32.const 0))
        (loop $round
          (local.set $t1
            (i32.add
              (i32.add (local.get $h)
                (i32.xor (i32.xor (i32.rotr (local.get $e) (i32.const 6)) (i32.rotr (local.get $e) (i32.const 11))) (i32.rotr (local.get $e) (i32.const 25))))
              (i32.add
                (i32.xor (i32.and (local.get $e) (local.get $f)) (i32.and (i32.xor (local.get $e) (i32.const -1)) (local.get $g)))
                (i32.add (i32.load (local.get $i)) (i32.load offset=320 (local.get $i))))))
          (local.set $t2
            (i32.add
              (i32.xor (i32.xor (i32.rotr (local.get $a) (i32.const 2)) (i32.rotr (local.get $a) (i32.const 13))) (i32.rotr (local.get $a) (i32.const 22)))
              (i32.xor (i32.xor (i32.and (local.get $a) (local.get $b)) (i32.and (local.get $a) (local.get $c))) (i32.and (local.get $b) (local.get $c)))))
          (local.set $h (local.get $g))
          (local.set $g (local.get $f))
          (local.set $f (local.get $e))
          (local.set $e (i32.add (local.get $d) (local.get $t1)))
          (local.set $d (local.get $c))
          (local.set $c (local.get $b))
          (local.set $b (local.get $a))
          (local.set $a (i32.add (local.get $t1) (local.get $t2)))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br_if $round (i32.lt_u (local.get $i) (i32.const 256))))
        (i32.store offset=288 (i32.const 0) (i32.add (i32.load offset=288 (i32.const 0)) (local.get $a)))
        (i32.store offset=292 (i32.const 0) (i32.add (i32.load offset=292 (i32.const 0)) (local.get $b)))
        (i32.store offset=296 (i32.const 0) (i32.add (i32.load offset=296 (i32.const 0)) (local.get $c)))
        (i32.store offset=300 (i32.const 0) (i32.add (i32.load offset=300 (i32.const 0)) (local.get $d)))
        (i32.store offset=304 (i32.const 0) (i32.add (i32.load offset=304 (i32.const 0)) (local.get $e)))
        (i32.store offset=308 (i32.const 0) (i32.add (i32.load offset=308 (i32.const 0)) (local.get $f)))
        (i32.store offset=312 (i32.const 0) (i32.add (i32.load offset=312 (i32.const 0)) (local.get $g)))
        (i32.store offset=316 (i32.const 0) (i32.add (i32.load offset=316 (i32.const 0)) (local.get $h)))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (br $block)))))
