;; The trainer's forward and backward pass over one position, in float32
;; with WebAssembly SIMD (four lanes). All offsets are in bytes of the
;; module's memory, which holds (see wasm-gradients.ts) the weights, their
;; gradients at a fixed distance `delta` after them, the two accumulators and
;; the row list: the byte offsets of the weight rows of the position's
;; active inputs, the side to move's at rows[0..n) and the other side's at
;; rows[32..32 + n). The hidden size is a multiple of 4. The accumulators are
;; exactly the TypeScript reference's (nnue-model.ts: float32 sums added in
;; the same order); the output and the gradients are summed in float32 here
;; and in float64 there, so those agree to rounding.
;; Assembled by `npm run build:wasm` into train-kernel-wasm.ts.
(module
  (import "env" "memory" (memory 1))
  (global $b1 (mut i32) (i32.const 0))
  (global $accUs (mut i32) (i32.const 0))
  (global $accThem (mut i32) (i32.const 0))
  (global $rows (mut i32) (i32.const 0))
  (global $delta (mut i32) (i32.const 0))
  ;; Bytes of one row of H floats.
  (global $hb (mut i32) (i32.const 0))

  (func (export "setup") (param $b1 i32) (param $accUs i32) (param $accThem i32) (param $rows i32) (param $delta i32) (param $h i32)
    (global.set $b1 (local.get $b1))
    (global.set $accUs (local.get $accUs))
    (global.set $accThem (local.get $accThem))
    (global.set $rows (local.get $rows))
    (global.set $delta (local.get $delta))
    (global.set $hb (i32.shl (local.get $h) (i32.const 2))))

  ;; The accumulators b1 + the rows of each perspective, stored; returns
  ;; the sum over both perspectives of W2 . clamp(acc, 0, 1)^2, with the
  ;; bucket's W2 at $w2 (the side to move's H weights, then the other's).
  (func (export "forward") (param $n i32) (param $w2 i32) (result f64)
    (local $j i32) (local $k i32) (local $at i32) (local $w2them i32)
    (local $u v128) (local $t v128) (local $x v128) (local $sum v128) (local $zero v128) (local $one v128)
    (local.set $one (f32x4.splat (f32.const 1)))
    (local.set $w2them (i32.add (local.get $w2) (global.get $hb)))
    (loop $lj
      (local.set $u (v128.load (i32.add (global.get $b1) (local.get $j))))
      (local.set $t (local.get $u))
      (local.set $k (i32.const 0))
      (block $done
        (loop $lk
          (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
          (local.set $at (i32.add (global.get $rows) (i32.shl (local.get $k) (i32.const 2))))
          (local.set $u (f32x4.add (local.get $u) (v128.load (i32.add (i32.load (local.get $at)) (local.get $j)))))
          (local.set $t (f32x4.add (local.get $t) (v128.load (i32.add (i32.load offset=128 (local.get $at)) (local.get $j)))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $lk)))
      (v128.store (i32.add (global.get $accUs) (local.get $j)) (local.get $u))
      (v128.store (i32.add (global.get $accThem) (local.get $j)) (local.get $t))
      (local.set $x (f32x4.min (f32x4.max (local.get $u) (local.get $zero)) (local.get $one)))
      (local.set $sum (f32x4.add (local.get $sum)
        (f32x4.mul (v128.load (i32.add (local.get $w2) (local.get $j))) (f32x4.mul (local.get $x) (local.get $x)))))
      (local.set $x (f32x4.min (f32x4.max (local.get $t) (local.get $zero)) (local.get $one)))
      (local.set $sum (f32x4.add (local.get $sum)
        (f32x4.mul (v128.load (i32.add (local.get $w2them) (local.get $j))) (f32x4.mul (local.get $x) (local.get $x)))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $lj (i32.lt_u (local.get $j) (global.get $hb))))
    (f64.promote_f32
      (f32.add
        (f32.add (f32x4.extract_lane 0 (local.get $sum)) (f32x4.extract_lane 1 (local.get $sum)))
        (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum))))))

  ;; Given $g, the derivative of the loss by the output, adds the gradients
  ;; of W2 (at $w2), b1 and the active rows of W1 to theirs ($delta bytes
  ;; after each weight). The accumulators of the last forward() become their
  ;; own gradients on the way.
  (func (export "backward") (param $g f32) (param $n i32) (param $w2 i32)
    (local $j i32) (local $k i32) (local $at i32) (local $w2them i32) (local $ru i32) (local $rt i32)
    (local $u v128) (local $t v128) (local $x v128) (local $gv v128) (local $g2 v128) (local $zero v128) (local $one v128)
    (local.set $one (f32x4.splat (f32.const 1)))
    (local.set $gv (f32x4.splat (local.get $g)))
    (local.set $g2 (f32x4.add (local.get $gv) (local.get $gv)))
    (local.set $w2them (i32.add (local.get $w2) (global.get $hb)))
    (loop $lj
      (local.set $u (v128.load (i32.add (global.get $accUs) (local.get $j))))
      (local.set $t (v128.load (i32.add (global.get $accThem) (local.get $j))))
      ;; W2: g times the activations.
      (local.set $at (i32.add (i32.add (local.get $w2) (global.get $delta)) (local.get $j)))
      (local.set $x (f32x4.min (f32x4.max (local.get $u) (local.get $zero)) (local.get $one)))
      (v128.store (local.get $at) (f32x4.add (v128.load (local.get $at)) (f32x4.mul (local.get $gv) (f32x4.mul (local.get $x) (local.get $x)))))
      (local.set $at (i32.add (i32.add (local.get $w2them) (global.get $delta)) (local.get $j)))
      (local.set $x (f32x4.min (f32x4.max (local.get $t) (local.get $zero)) (local.get $one)))
      (v128.store (local.get $at) (f32x4.add (v128.load (local.get $at)) (f32x4.mul (local.get $gv) (f32x4.mul (local.get $x) (local.get $x)))))
      ;; The accumulators' gradients: 2 g W2 acc where 0 < acc < 1, else 0.
      (local.set $u
        (v128.and
          (v128.and (f32x4.gt (local.get $u) (local.get $zero)) (f32x4.lt (local.get $u) (local.get $one)))
          (f32x4.mul (f32x4.mul (local.get $g2) (v128.load (i32.add (local.get $w2) (local.get $j)))) (local.get $u))))
      (local.set $t
        (v128.and
          (v128.and (f32x4.gt (local.get $t) (local.get $zero)) (f32x4.lt (local.get $t) (local.get $one)))
          (f32x4.mul (f32x4.mul (local.get $g2) (v128.load (i32.add (local.get $w2them) (local.get $j)))) (local.get $t))))
      (v128.store (i32.add (global.get $accUs) (local.get $j)) (local.get $u))
      (v128.store (i32.add (global.get $accThem) (local.get $j)) (local.get $t))
      (local.set $at (i32.add (i32.add (global.get $b1) (global.get $delta)) (local.get $j)))
      (v128.store (local.get $at) (f32x4.add (v128.load (local.get $at)) (f32x4.add (local.get $u) (local.get $t))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $lj (i32.lt_u (local.get $j) (global.get $hb))))
    ;; The rows of the active inputs, each perspective's with its accumulator's gradients.
    (local.set $k (i32.const 0))
    (block $done
      (loop $lk
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $at (i32.add (global.get $rows) (i32.shl (local.get $k) (i32.const 2))))
        (local.set $ru (i32.add (i32.load (local.get $at)) (global.get $delta)))
        (local.set $rt (i32.add (i32.load offset=128 (local.get $at)) (global.get $delta)))
        (local.set $j (i32.const 0))
        (loop $lj2
          (v128.store (i32.add (local.get $ru) (local.get $j))
            (f32x4.add (v128.load (i32.add (local.get $ru) (local.get $j))) (v128.load (i32.add (global.get $accUs) (local.get $j)))))
          (v128.store (i32.add (local.get $rt) (local.get $j))
            (f32x4.add (v128.load (i32.add (local.get $rt) (local.get $j))) (v128.load (i32.add (global.get $accThem) (local.get $j)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $lj2 (i32.lt_u (local.get $j) (global.get $hb))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $lk))))
)
