/*
 * gpu_nodes.h - the machine's NVIDIA GPUs as the driver lists them, so that a class's workers can
 * each be given one GPU: its index, its UUID and its device node.
 *
 * The driver writes one folder per GPU under /proc/driver/nvidia/gpus, named by its PCI address,
 * with an `information` file ("GPU UUID:", "Device Minor:", "Model:"). The GPUs are numbered in
 * PCI order, as nvidia-smi numbers them (and CUDA, for GPUs of one kind). A CUDA_VISIBLE_DEVICES
 * entry names one by that number or by its UUID (or a UUID's beginning, as CUDA allows).
 *
 * For tests on a machine without GPUs, CUDACHEF_GPU_PROC names a folder laid out as the driver's
 * and CUDACHEF_GPU_DEV the folder of their device nodes (else /dev): a fake list.
 */
#ifndef CUDACHEF_GPU_NODES_H
#define CUDACHEF_GPU_NODES_H

#include <stddef.h>

#define GPU_NODES_MAX 64   /* GPUs kept, the first in PCI order */
#define GPU_NODES_READ 1024 /* folders read before they are sorted */

/* One GPU. */
typedef struct gpu_node {
    int index;      /* its place in PCI order, from 0 */
    int minor;      /* its device node is /dev/nvidia<minor> */
    char uuid[80];  /* "GPU-" and 36 characters */
    char bus[32];   /* its PCI address, "0000:19:00.0" */
    char model[96]; /* "NVIDIA H200" */
} gpu_node;

/* Reads the list into out (at most max), in PCI order. Returns how many (0 when there is no
   driver's list). */
int gpu_nodes_list(gpu_node *out, int max);

/* One entry of a CUDA_VISIBLE_DEVICES list (text, len bytes) without the blanks around it, into
   out; -1 when it is empty or longer than out. */
int gpu_nodes_entry(const char *text, size_t len, char *out, size_t size);

/* The GPU a CUDA_VISIBLE_DEVICES entry names: an index, or a UUID or its beginning ("GPU-3f2a");
   NULL when it names none or, by a beginning, more than one (MIG-... entries name none). */
const gpu_node *gpu_nodes_find(const gpu_node *list, int n, const char *entry);

/* Whether the list is a fake one (CUDACHEF_GPU_PROC set): a test of sharing GPUs out. */
int gpu_nodes_fake(void);

/* The folder of the device nodes: CUDACHEF_GPU_DEV, else /dev. */
const char *gpu_nodes_dev_dir(void);

#endif
