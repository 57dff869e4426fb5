;; The network's integer work with WebAssembly SIMD (128-bit vectors: eight
;; int16 lanes). Offsets and sizes are in int16 elements of the module's
;; memory, which holds the weights and the accumulators (see wasm.ts);
;; the hidden size h is a multiple of 8. The results equal the TypeScript
;; reference kernel (evaluator.ts) exactly.
;; Assembled by `npm run build:wasm` into kernel-wasm.ts.
(module
  (import "env" "memory" (memory 1))

  ;; acc[dst + j] = acc[src + j] + w[a0 + j] (+ w[a1 + j]) - w[s0 + j] (- w[s1 + j]),
  ;; with na, ns in 0..2 the number of rows added and subtracted.
  (func (export "update") (param $dst i32) (param $src i32) (param $a0 i32) (param $a1 i32)
        (param $s0 i32) (param $s1 i32) (param $na i32) (param $ns i32) (param $h i32)
    (local $j i32) (local $end i32) (local $v v128)
    (local.set $dst (i32.shl (local.get $dst) (i32.const 1)))
    (local.set $src (i32.shl (local.get $src) (i32.const 1)))
    (local.set $a0 (i32.shl (local.get $a0) (i32.const 1)))
    (local.set $a1 (i32.shl (local.get $a1) (i32.const 1)))
    (local.set $s0 (i32.shl (local.get $s0) (i32.const 1)))
    (local.set $s1 (i32.shl (local.get $s1) (i32.const 1)))
    (local.set $end (i32.shl (local.get $h) (i32.const 1)))
    ;; The usual move: one row in, one out.
    (if (i32.and (i32.eq (local.get $na) (i32.const 1)) (i32.eq (local.get $ns) (i32.const 1)))
      (then
        (loop $l11
          (v128.store (i32.add (local.get $dst) (local.get $j))
            (i16x8.sub
              (i16x8.add (v128.load (i32.add (local.get $src) (local.get $j)))
                         (v128.load (i32.add (local.get $a0) (local.get $j))))
              (v128.load (i32.add (local.get $s0) (local.get $j)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $l11 (i32.lt_u (local.get $j) (local.get $end))))
        (return)))
    ;; Anything else: up to two rows in and two out.
    (loop $lg
      (local.set $v (v128.load (i32.add (local.get $src) (local.get $j))))
      (if (i32.gt_u (local.get $na) (i32.const 0))
        (then (local.set $v (i16x8.add (local.get $v) (v128.load (i32.add (local.get $a0) (local.get $j)))))))
      (if (i32.gt_u (local.get $na) (i32.const 1))
        (then (local.set $v (i16x8.add (local.get $v) (v128.load (i32.add (local.get $a1) (local.get $j)))))))
      (if (i32.gt_u (local.get $ns) (i32.const 0))
        (then (local.set $v (i16x8.sub (local.get $v) (v128.load (i32.add (local.get $s0) (local.get $j)))))))
      (if (i32.gt_u (local.get $ns) (i32.const 1))
        (then (local.set $v (i16x8.sub (local.get $v) (v128.load (i32.add (local.get $s1) (local.get $j)))))))
      (v128.store (i32.add (local.get $dst) (local.get $j)) (local.get $v))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $lg (i32.lt_u (local.get $j) (local.get $end)))))

  ;; acc[dst + j] = b[j] + the sum over k < n of w[rows[k] + j], rows an int32 array at byte offset $rows.
  (func (export "refresh") (param $dst i32) (param $b i32) (param $rows i32) (param $n i32) (param $h i32)
    (local $j i32) (local $k i32) (local $end i32) (local $v v128) (local $row i32)
    (local.set $dst (i32.shl (local.get $dst) (i32.const 1)))
    (local.set $b (i32.shl (local.get $b) (i32.const 1)))
    (local.set $end (i32.shl (local.get $h) (i32.const 1)))
    (loop $lj
      (local.set $v (v128.load (i32.add (local.get $b) (local.get $j))))
      (local.set $k (i32.const 0))
      (block $done
        (loop $lk
          (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
          (local.set $row (i32.shl (i32.load (i32.add (local.get $rows) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 1)))
          (local.set $v (i16x8.add (local.get $v) (v128.load (i32.add (local.get $row) (local.get $j)))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $lk)))
      (v128.store (i32.add (local.get $dst) (local.get $j)) (local.get $v))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $lj (i32.lt_u (local.get $j) (local.get $end)))))

  ;; The sum over j < h of clamp(acc[us + j], 0, qa)^2 * w[w2 + j] + clamp(acc[them + j], 0, qa)^2 * w[w2 + h + j],
  ;; as (v * w) * v: v * w fits int16 for |w| <= 128, and the sums fit the int32 lanes for h <= 512 (laneSumsFit).
  (func (export "output") (param $us i32) (param $them i32) (param $w2 i32) (param $h i32) (param $qa i32) (result f64)
    (local $j i32) (local $end i32) (local $sum v128) (local $v v128) (local $zero v128) (local $top v128)
    (local $w2them i32)
    (local.set $us (i32.shl (local.get $us) (i32.const 1)))
    (local.set $them (i32.shl (local.get $them) (i32.const 1)))
    (local.set $w2 (i32.shl (local.get $w2) (i32.const 1)))
    (local.set $end (i32.shl (local.get $h) (i32.const 1)))
    (local.set $w2them (i32.add (local.get $w2) (local.get $end)))
    (local.set $top (i16x8.splat (local.get $qa)))
    (loop $l
      (local.set $v (i16x8.min_s (i16x8.max_s (v128.load (i32.add (local.get $us) (local.get $j))) (local.get $zero)) (local.get $top)))
      (local.set $sum (i32x4.add (local.get $sum)
        (i32x4.dot_i16x8_s (i16x8.mul (local.get $v) (v128.load (i32.add (local.get $w2) (local.get $j)))) (local.get $v))))
      (local.set $v (i16x8.min_s (i16x8.max_s (v128.load (i32.add (local.get $them) (local.get $j))) (local.get $zero)) (local.get $top)))
      (local.set $sum (i32x4.add (local.get $sum)
        (i32x4.dot_i16x8_s (i16x8.mul (local.get $v) (v128.load (i32.add (local.get $w2them) (local.get $j)))) (local.get $v))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $l (i32.lt_u (local.get $j) (local.get $end))))
    (f64.add
      (f64.add (f64.convert_i32_s (i32x4.extract_lane 0 (local.get $sum))) (f64.convert_i32_s (i32x4.extract_lane 1 (local.get $sum))))
      (f64.add (f64.convert_i32_s (i32x4.extract_lane 2 (local.get $sum))) (f64.convert_i32_s (i32x4.extract_lane 3 (local.get $sum))))))

  ;; The same sum for activation 2: each clamped value v squared first, (v * v + 128) >> 8 (v * v <= 65025
  ;; fits the lanes as unsigned 16-bit numbers, and so does the + 128), then the pairs' products with the
  ;; weights summed into int32 lanes (wasm.ts laneSumsFit: within 2^31 for |w| <= 4096 and h <= 4096).
  (func (export "outputSquareFirst") (param $us i32) (param $them i32) (param $w2 i32) (param $h i32) (param $qa i32) (result f64)
    (local $j i32) (local $end i32) (local $sum v128) (local $v v128) (local $zero v128) (local $top v128) (local $half v128)
    (local $w2them i32)
    (local.set $us (i32.shl (local.get $us) (i32.const 1)))
    (local.set $them (i32.shl (local.get $them) (i32.const 1)))
    (local.set $w2 (i32.shl (local.get $w2) (i32.const 1)))
    (local.set $end (i32.shl (local.get $h) (i32.const 1)))
    (local.set $w2them (i32.add (local.get $w2) (local.get $end)))
    (local.set $top (i16x8.splat (local.get $qa)))
    (local.set $half (i16x8.splat (i32.const 128)))
    (loop $l
      (local.set $v (i16x8.min_s (i16x8.max_s (v128.load (i32.add (local.get $us) (local.get $j))) (local.get $zero)) (local.get $top)))
      (local.set $v (i16x8.shr_u (i16x8.add (i16x8.mul (local.get $v) (local.get $v)) (local.get $half)) (i32.const 8)))
      (local.set $sum (i32x4.add (local.get $sum)
        (i32x4.dot_i16x8_s (local.get $v) (v128.load (i32.add (local.get $w2) (local.get $j))))))
      (local.set $v (i16x8.min_s (i16x8.max_s (v128.load (i32.add (local.get $them) (local.get $j))) (local.get $zero)) (local.get $top)))
      (local.set $v (i16x8.shr_u (i16x8.add (i16x8.mul (local.get $v) (local.get $v)) (local.get $half)) (i32.const 8)))
      (local.set $sum (i32x4.add (local.get $sum)
        (i32x4.dot_i16x8_s (local.get $v) (v128.load (i32.add (local.get $w2them) (local.get $j))))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $l (i32.lt_u (local.get $j) (local.get $end))))
    (f64.add
      (f64.add (f64.convert_i32_s (i32x4.extract_lane 0 (local.get $sum))) (f64.convert_i32_s (i32x4.extract_lane 1 (local.get $sum))))
      (f64.add (f64.convert_i32_s (i32x4.extract_lane 2 (local.get $sum))) (f64.convert_i32_s (i32x4.extract_lane 3 (local.get $sum))))))
)
