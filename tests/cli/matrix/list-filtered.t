# filters only remove; unsupported cases stay listed with their reason
args: matrix --platforms configs/platforms.json --sku h100 --backend uccl-ep --precision fp8 --phase decode --list configs/sweep-ep.json
exit: 0
--- stdout
case                                                             disposition    ep nodes  scope     topology             shard or reason
h100-uccl-ep-deepseek-v3-low-latency-decode-ep16-uniform-fp8     runnable       16     2  scale-out multi-node-scale-out h100-uccl-ep-ll-fp8-n2
h100-uccl-ep-deepseek-v3-low-latency-decode-ep32-uniform-fp8     runnable       32     4  scale-out multi-node-scale-out h100-uccl-ep-ll-fp8-n4
h100-uccl-ep-deepseek-v3-low-latency-decode-ep64-uniform-fp8     unsupported    64     8  scale-out multi-node-scale-out backend-platform-unsupported
h100-uccl-ep-deepseek-v3-low-latency-decode-ep8-uniform-fp8      runnable        8     1  scale-up  single-node          h100-uccl-ep-ll-fp8-n1
h100-uccl-ep-deepseek-v3-normal-decode-ep16-uniform-fp8          runnable       16     2  scale-out multi-node-scale-out h100-uccl-ep-fp8-n2
h100-uccl-ep-deepseek-v3-normal-decode-ep32-uniform-fp8          runnable       32     4  scale-out multi-node-scale-out h100-uccl-ep-fp8-n4
h100-uccl-ep-deepseek-v3-normal-decode-ep64-uniform-fp8          unsupported    64     8  scale-out multi-node-scale-out backend-platform-unsupported
h100-uccl-ep-deepseek-v3-normal-decode-ep8-uniform-fp8           runnable        8     1  scale-up  single-node          h100-uccl-ep-fp8-n1
--- stderr
